// RUN: ttmlir-opt --split-input-file %s | FileCheck %s
// RUN: ttmlir-opt --split-input-file %s | ttmlir-opt --split-input-file | FileCheck %s
// RUN: ttmlir-opt --split-input-file --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN
// TTIR ternary ops: one chunk per op; each is parsed, printed, re-parsed and lowered on its own.

// CHECK-LABEL: func.func @clamp_tensor
// CHECK: %{{[0-9]+}} = "ttir.clamp_tensor"(%arg0, %arg1, %arg2) : (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.clamp_tensor"
// TTNN-SAME: #ttnn_layout
module {
  func.func @clamp_tensor(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>, %arg2: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.clamp_tensor"(%arg0, %arg1, %arg2) : (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

// CHECK-LABEL: func.func @where
// CHECK: %{{[0-9]+}} = "ttir.where"(%arg0, %arg1, %arg2) : (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
// TTNN: "ttnn.where"
// TTNN-SAME: #ttnn_layout
module {
  func.func @where(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>, %arg2: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.where"(%arg0, %arg1, %arg2) : (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
