// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @rms_norm
// CHECK: %{{[0-9]+}} = "ttir.rms_norm"(%arg0, %arg1) <{epsilon = 9.99999997E-7 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<4x32x64xf32>, tensor<64xf32>) -> tensor<4x32x64xf32>
// TTNN: "ttnn.rms_norm"
// TTNN-SAME: #ttnn_layout
module {
  func.func @rms_norm(%arg0: tensor<4x32x64xf32>, %arg1: tensor<64xf32>) -> tensor<4x32x64xf32> {
    %0 = "ttir.rms_norm"(%arg0, %arg1) <{epsilon = 9.99999997E-7 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<4x32x64xf32>, tensor<64xf32>) -> tensor<4x32x64xf32>
    return %0 : tensor<4x32x64xf32>
  }
}
