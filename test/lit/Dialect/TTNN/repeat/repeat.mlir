// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @repeat
// CHECK: %{{[0-9]+}} = "ttnn.repeat"(%arg0) <{repeat_dims = #ttnn.shape<4x1x2>}> : (tensor<1x32x64xf32>) -> tensor<4x32x128xf32>
module {
  func.func @repeat(%arg0: tensor<1x32x64xf32>) -> tensor<4x32x128xf32> {
    %0 = "ttnn.repeat"(%arg0) <{repeat_dims = #ttnn.shape<4x1x2>}> : (tensor<1x32x64xf32>) -> tensor<4x32x128xf32>
    return %0 : tensor<4x32x128xf32>
  }
}
