// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% enable-ttnn-decomposition-pass=false" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @group_norm
// CHECK: %{{[0-9]+}} = "ttir.group_norm"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, num_groups = 8 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 1>}> : (tensor<1x1x64x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x1x64x32xf32>
// TTNN: "ttnn.group_norm"
// TTNN-SAME: #ttnn_layout
module {
  func.func @group_norm(%arg0: tensor<1x1x64x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>) -> tensor<1x1x64x32xf32> {
    %0 = "ttir.group_norm"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, num_groups = 8 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 1>}> : (tensor<1x1x64x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x1x64x32xf32>
    return %0 : tensor<1x1x64x32xf32>
  }
}
