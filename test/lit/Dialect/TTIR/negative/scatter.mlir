// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// ttir.scatter's operands are checked in upstream's words.
func.func @index_rank_differs(%arg0: tensor<64x32xf32>, %arg1: tensor<8xi32>, %arg2: tensor<8x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{'ttir.scatter' op Input tensor, index tensor, and source tensor must have the same rank. Got input rank = 2, index rank = 1, source rank = 2}}
  %0 = "ttir.scatter"(%arg0, %arg1, %arg2) <{dim = 0 : i32, scatter_reduce_type = #ttcore.reduce_type<invalid>}> : (tensor<64x32xf32>, tensor<8xi32>, tensor<8x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----
func.func @source_shape_differs(%arg0: tensor<64x32xf32>, %arg1: tensor<8x32xi32>, %arg2: tensor<4x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{'ttir.scatter' op Index tensor must have the same shape as source tensor.}}
  %0 = "ttir.scatter"(%arg0, %arg1, %arg2) <{dim = 0 : i32, scatter_reduce_type = #ttcore.reduce_type<invalid>}> : (tensor<64x32xf32>, tensor<8x32xi32>, tensor<4x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}
