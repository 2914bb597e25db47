// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.gather' op expected 2 operands, but found 3}}
module {
  func.func @gather(%arg0: tensor<32000x512xf32>, %arg1: tensor<1x15xsi32>, %arg2: tensor<32000x512xf32>) -> tensor<1x15x512xf32> {
    %0 = "ttir.gather"(%arg0, %arg1, %arg2) <{collapsed_slice_dims = array<i64: 0>, index_vector_dim = 2 : si64, indices_are_sorted = false, offset_dims = array<i64: 2>, operand_batching_dims = array<i64>, slice_sizes = array<i64: 1, 512>, start_index_map = array<i64: 0>, start_indices_batching_dims = array<i64>}> : (tensor<32000x512xf32>, tensor<1x15xsi32>, tensor<32000x512xf32>) -> tensor<1x15x512xf32>
    return %0 : tensor<1x15x512xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.gather' op requires attribute 'offset_dims'}}
module {
  func.func @gather(%arg0: tensor<32000x512xf32>, %arg1: tensor<1x15xsi32>) -> tensor<1x15x512xf32> {
    %0 = "ttir.gather"(%arg0, %arg1) <{collapsed_slice_dims = array<i64: 0>, index_vector_dim = 2 : si64, indices_are_sorted = false, operand_batching_dims = array<i64>, slice_sizes = array<i64: 1, 512>, start_index_map = array<i64: 0>, start_indices_batching_dims = array<i64>}> : (tensor<32000x512xf32>, tensor<1x15xsi32>) -> tensor<1x15x512xf32>
    return %0 : tensor<1x15x512xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.gather' op attribute 'offset_dims' failed to satisfy constraint}}
module {
  func.func @gather(%arg0: tensor<32000x512xf32>, %arg1: tensor<1x15xsi32>) -> tensor<1x15x512xf32> {
    %0 = "ttir.gather"(%arg0, %arg1) <{collapsed_slice_dims = array<i64: 0>, index_vector_dim = 2 : si64, indices_are_sorted = false, offset_dims = "oops", operand_batching_dims = array<i64>, slice_sizes = array<i64: 1, 512>, start_index_map = array<i64: 0>, start_indices_batching_dims = array<i64>}> : (tensor<32000x512xf32>, tensor<1x15xsi32>) -> tensor<1x15x512xf32>
    return %0 : tensor<1x15x512xf32>
  }
}

// -----
// torch.gather's form, checked in upstream's words.
func.func @float_index(%arg0: tensor<5x3xf32>, %arg1: tensor<2x3xbf16>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ttir.gather' op Index tensor must have an integer type, got 'bf16'}}
  %0 = "ttir.gather"(%arg0, %arg1) <{dim = 0 : i32}> : (tensor<5x3xf32>, tensor<2x3xbf16>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----
func.func @rank_mismatch(%arg0: tensor<5x3xf32>, %arg1: tensor<6xui32>) -> tensor<6xf32> {
  // expected-error @+1 {{'ttir.gather' op Input tensor and index tensor must have the same rank. Got input rank = 2, index rank = 1}}
  %0 = "ttir.gather"(%arg0, %arg1) <{dim = 0 : i32}> : (tensor<5x3xf32>, tensor<6xui32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----
func.func @dim_out_of_range(%arg0: tensor<5x3xf32>, %arg1: tensor<2x3xui32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ttir.gather' op Dimension must be in the range [-2, 2), got dim = -3}}
  %0 = "ttir.gather"(%arg0, %arg1) <{dim = -3 : i32}> : (tensor<5x3xf32>, tensor<2x3xui32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----
func.func @result_not_index_shaped(%arg0: tensor<5x3xf32>, %arg1: tensor<2x3xui32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'ttir.gather' op Index tensor and result tensor must have the same shape.}}
  %0 = "ttir.gather"(%arg0, %arg1) <{dim = 0 : i32}> : (tensor<5x3xf32>, tensor<2x3xui32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----
func.func @stablehlo_form_incomplete(%arg0: tensor<5x3xf32>, %arg1: tensor<2x1xsi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ttir.gather' op requires attribute 'collapsed_slice_dims'}}
  %0 = "ttir.gather"(%arg0, %arg1) <{offset_dims = array<i64: 1>}> : (tensor<5x3xf32>, tensor<2x1xsi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
