// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.dot_general' op expected 2 operands, but found 3}}
module {
  func.func @dot_general(%arg0: tensor<8x64x128xf32>, %arg1: tensor<8x128x96xf32>, %arg2: tensor<8x64x128xf32>) -> tensor<8x64x96xf32> {
    %0 = "ttir.dot_general"(%arg0, %arg1, %arg2) <{batch_dims_lhs = array<i64: 0>, batch_dims_rhs = array<i64: 0>, contract_dims_lhs = array<i64: 2>, contract_dims_rhs = array<i64: 1>}> : (tensor<8x64x128xf32>, tensor<8x128x96xf32>, tensor<8x64x128xf32>) -> tensor<8x64x96xf32>
    return %0 : tensor<8x64x96xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.dot_general' op requires attribute 'batch_dims_lhs'}}
module {
  func.func @dot_general(%arg0: tensor<8x64x128xf32>, %arg1: tensor<8x128x96xf32>) -> tensor<8x64x96xf32> {
    %0 = "ttir.dot_general"(%arg0, %arg1) <{batch_dims_rhs = array<i64: 0>, contract_dims_lhs = array<i64: 2>, contract_dims_rhs = array<i64: 1>}> : (tensor<8x64x128xf32>, tensor<8x128x96xf32>) -> tensor<8x64x96xf32>
    return %0 : tensor<8x64x96xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.dot_general' op attribute 'batch_dims_lhs' failed to satisfy constraint}}
module {
  func.func @dot_general(%arg0: tensor<8x64x128xf32>, %arg1: tensor<8x128x96xf32>) -> tensor<8x64x96xf32> {
    %0 = "ttir.dot_general"(%arg0, %arg1) <{batch_dims_lhs = "oops", batch_dims_rhs = array<i64: 0>, contract_dims_lhs = array<i64: 2>, contract_dims_rhs = array<i64: 1>}> : (tensor<8x64x128xf32>, tensor<8x128x96xf32>) -> tensor<8x64x96xf32>
    return %0 : tensor<8x64x96xf32>
  }
}
