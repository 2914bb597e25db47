// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @permute
// CHECK: %{{[0-9]+}} = "ttnn.permute"(%arg0) <{pad_value = 0.000000e+00 : f32, permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32>
module {
  func.func @permute(%arg0: tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32> {
    %0 = "ttnn.permute"(%arg0) <{pad_value = 0.000000e+00 : f32, permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32>
    return %0 : tensor<1x32x4x64xf32>
  }
}
