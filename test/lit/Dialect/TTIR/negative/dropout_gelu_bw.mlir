// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// ttir.dropout and ttir.gelu_bw are checked in upstream's words.
func.func @dropout_probability_above_one(%arg0: tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  // expected-error @+1 {{'ttir.dropout' op Probability must be in range [0.0, 1.0], but got 1.5}}
  %0 = "ttir.dropout"(%arg0) <{prob = 1.5 : f32}> : (tensor<8x16xbf16>) -> tensor<8x16xbf16>
  return %0 : tensor<8x16xbf16>
}

// -----
func.func @dropout_zero_scale(%arg0: tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  // expected-error @+1 {{'ttir.dropout' op Scale must be positive, but got 0}}
  %0 = "ttir.dropout"(%arg0) <{prob = 0.5 : f32, scale = 0.0 : f32}> : (tensor<8x16xbf16>) -> tensor<8x16xbf16>
  return %0 : tensor<8x16xbf16>
}

// -----
func.func @dropout_rank_one(%arg0: tensor<16xbf16>) -> tensor<16xbf16> {
  // expected-error @+1 {{'ttir.dropout' op Input tensor rank must be 2, 3, or 4, but got 1}}
  %0 = "ttir.dropout"(%arg0) : (tensor<16xbf16>) -> tensor<16xbf16>
  return %0 : tensor<16xbf16>
}

// -----
func.func @dropout_retyped(%arg0: tensor<8x16xbf16>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'ttir.dropout' op Input tensor type does not match with output tensor type. [Input tensor type = tensor<8x16xbf16>, output tensor type = tensor<8x16xf32>].}}
  %0 = "ttir.dropout"(%arg0) : (tensor<8x16xbf16>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----
func.func @gelu_bw_unknown_approximation(%arg0: tensor<8x16xbf16>, %arg1: tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  // expected-error @+1 {{'ttir.gelu_bw' op approximate attribute must be either 'none' or 'tanh', but got 'erf'}}
  %0 = "ttir.gelu_bw"(%arg0, %arg1) <{approximate = "erf"}> : (tensor<8x16xbf16>, tensor<8x16xbf16>) -> tensor<8x16xbf16>
  return %0 : tensor<8x16xbf16>
}

// -----
func.func @gelu_bw_ranks_differ(%arg0: tensor<2x8x16xbf16>, %arg1: tensor<8x16xbf16>) -> tensor<2x8x16xbf16> {
  // expected-error @+1 {{'ttir.gelu_bw' op gradient tensor (lhs) and input tensor (rhs) must have the same rank, but got lhs rank 3 and rhs rank 2}}
  %0 = "ttir.gelu_bw"(%arg0, %arg1) : (tensor<2x8x16xbf16>, tensor<8x16xbf16>) -> tensor<2x8x16xbf16>
  return %0 : tensor<2x8x16xbf16>
}
