// RUN: ttmlir-opt --verify-diagnostics %s

func.func @gather(%arg0: tensor<32000x512xf32>, %arg1: tensor<1x15xsi32>, %arg2: tensor<32000x512xf32>) -> tensor<1x15x512xf32> {
  // expected-error @+1 {{'ttnn.gather' op expected 2 operands, but found 3}}
  %0 = "ttnn.gather"(%arg0, %arg1, %arg2) <{collapsed_slice_dims = array<i64: 0>, index_vector_dim = 2 : si64, indices_are_sorted = false, offset_dims = array<i64: 2>, operand_batching_dims = array<i64>, slice_sizes = array<i64: 1, 512>, start_index_map = array<i64: 0>, start_indices_batching_dims = array<i64>}> : (tensor<32000x512xf32>, tensor<1x15xsi32>, tensor<32000x512xf32>) -> tensor<1x15x512xf32>
  return %0 : tensor<1x15x512xf32>
}
