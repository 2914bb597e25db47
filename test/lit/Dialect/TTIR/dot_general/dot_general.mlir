// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @dot_general
// CHECK: %{{[0-9]+}} = "ttir.dot_general"(%arg0, %arg1) <{batch_dims_lhs = array<i64: 0>, batch_dims_rhs = array<i64: 0>, contract_dims_lhs = array<i64: 2>, contract_dims_rhs = array<i64: 1>}> : (tensor<8x64x128xf32>, tensor<8x128x96xf32>) -> tensor<8x64x96xf32>
// TTNN: "ttnn.matmul"
// TTNN-SAME: (tensor<8x64x128xf32, #ttnn_layout{{[0-9]*}}>, tensor<8x128x96xf32, #ttnn_layout{{[0-9]*}}>) -> tensor<8x64x96xf32
module {
  func.func @dot_general(%arg0: tensor<8x64x128xf32>, %arg1: tensor<8x128x96xf32>) -> tensor<8x64x96xf32> {
    %0 = "ttir.dot_general"(%arg0, %arg1) <{batch_dims_lhs = array<i64: 0>, batch_dims_rhs = array<i64: 0>, contract_dims_lhs = array<i64: 2>, contract_dims_rhs = array<i64: 1>}> : (tensor<8x64x128xf32>, tensor<8x128x96xf32>) -> tensor<8x64x96xf32>
    return %0 : tensor<8x64x96xf32>
  }
}
