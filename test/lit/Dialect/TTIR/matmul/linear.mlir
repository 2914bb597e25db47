// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @linear
// CHECK: %{{[0-9]+}} = "ttir.linear"(%arg0, %arg1, %arg2) <{transpose_a = false, transpose_b = false}> : (tensor<64x128xf32>, tensor<128x96xf32>, tensor<96xf32>) -> tensor<64x96xf32>
// TTNN: "ttnn.linear"
// TTNN-SAME: #ttnn_layout
module {
  func.func @linear(%arg0: tensor<64x128xf32>, %arg1: tensor<128x96xf32>, %arg2: tensor<96xf32>) -> tensor<64x96xf32> {
    %0 = "ttir.linear"(%arg0, %arg1, %arg2) : (tensor<64x128xf32>, tensor<128x96xf32>, tensor<96xf32>) -> tensor<64x96xf32>
    return %0 : tensor<64x96xf32>
  }
}
