// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @repeat
// CHECK: %{{[0-9]+}} = "ttir.repeat"(%arg0) <{repeat_dimensions = array<i64: 4, 1, 2>}> : (tensor<1x32x64xf32>) -> tensor<4x32x128xf32>
// TTNN: "ttnn.repeat"
// TTNN-SAME: #ttnn_layout
module {
  func.func @repeat(%arg0: tensor<1x32x64xf32>) -> tensor<4x32x128xf32> {
    %0 = "ttir.repeat"(%arg0) <{repeat_dimensions = array<i64: 4, 1, 2>}> : (tensor<1x32x64xf32>) -> tensor<4x32x128xf32>
    return %0 : tensor<4x32x128xf32>
  }
}
