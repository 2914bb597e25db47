// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// The attention ops' layouts, in upstream's words.

func.func @mask_with_causal(%q: tensor<1x8x32x64xbf16>, %k: tensor<1x2x32x64xbf16>, %m: tensor<1x1x32x32xbf16>) -> tensor<1x8x32x64xbf16> {
  // expected-error @+1 {{'ttir.scaled_dot_product_attention' op Attention mask is not allowed when is_causal is true}}
  %0 = "ttir.scaled_dot_product_attention"(%q, %k, %k, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> : (tensor<1x8x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x1x32x32xbf16>) -> tensor<1x8x32x64xbf16>
  return %0 : tensor<1x8x32x64xbf16>
}

// -----
func.func @heads_not_grouped(%q: tensor<1x8x32x64xbf16>, %k: tensor<1x3x32x64xbf16>) -> tensor<1x8x32x64xbf16> {
  // expected-error @+1 {{'ttir.scaled_dot_product_attention' op Query num heads must be divisible by key/value num heads}}
  %0 = "ttir.scaled_dot_product_attention"(%q, %k, %k) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<1x8x32x64xbf16>, tensor<1x3x32x64xbf16>, tensor<1x3x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  return %0 : tensor<1x8x32x64xbf16>
}

// -----
func.func @decode_query_dim0(%q: tensor<2x4x8x64xbf16>, %k: tensor<4x2x64x64xbf16>, %p: tensor<4xi32>) -> tensor<2x4x8x64xbf16> {
  // expected-error @+1 {{'ttir.scaled_dot_product_attention_decode' op Query dim 0 must be 1}}
  %0 = "ttir.scaled_dot_product_attention_decode"(%q, %k, %k, %p) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>}> : (tensor<2x4x8x64xbf16>, tensor<4x2x64x64xbf16>, tensor<4x2x64x64xbf16>, tensor<4xi32>) -> tensor<2x4x8x64xbf16>
  return %0 : tensor<2x4x8x64xbf16>
}

// -----
func.func @decode_positions_float(%q: tensor<1x4x8x64xbf16>, %k: tensor<4x2x64x64xbf16>, %p: tensor<4xf32>) -> tensor<1x4x8x64xbf16> {
  // expected-error @+1 {{'ttir.scaled_dot_product_attention_decode' op Cur pos tensor must be a tensor of integers}}
  %0 = "ttir.scaled_dot_product_attention_decode"(%q, %k, %k, %p) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>}> : (tensor<1x4x8x64xbf16>, tensor<4x2x64x64xbf16>, tensor<4x2x64x64xbf16>, tensor<4xf32>) -> tensor<1x4x8x64xbf16>
  return %0 : tensor<1x4x8x64xbf16>
}

// -----
func.func @paged_block(%q: tensor<1x2x8x64xbf16>, %k: tensor<16x2x48x64xbf16>, %t: tensor<2x8xi32>, %o: tensor<1x2x8x64xbf16>) -> tensor<1x2x8x64xbf16> {
  // expected-error @+1 {{'ttir.paged_scaled_dot_product_attention_decode' op Block size must be divisible by 32.}}
  %0 = "ttir.paged_scaled_dot_product_attention_decode"(%q, %k, %k, %t, %o) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>}> : (tensor<1x2x8x64xbf16>, tensor<16x2x48x64xbf16>, tensor<16x2x48x64xbf16>, tensor<2x8xi32>, tensor<1x2x8x64xbf16>) -> tensor<1x2x8x64xbf16>
  return %0 : tensor<1x2x8x64xbf16>
}

// -----
func.func @paged_needs_mask(%q: tensor<1x2x8x64xbf16>, %k: tensor<16x2x32x64xbf16>, %t: tensor<2x8xi32>, %o: tensor<1x2x8x64xbf16>) -> tensor<1x2x8x64xbf16> {
  // expected-error @+1 {{'ttir.paged_scaled_dot_product_attention_decode' op Attention mask is required when is_causal is false.}}
  %0 = "ttir.paged_scaled_dot_product_attention_decode"(%q, %k, %k, %t, %o) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>}> : (tensor<1x2x8x64xbf16>, tensor<16x2x32x64xbf16>, tensor<16x2x32x64xbf16>, tensor<2x8xi32>, tensor<1x2x8x64xbf16>) -> tensor<1x2x8x64xbf16>
  return %0 : tensor<1x2x8x64xbf16>
}

// -----
func.func @chunk_start_shape(%q: tensor<1x4x32x64xbf16>, %k: tensor<8x4x32x64xbf16>, %t: tensor<1x8xi32>, %s: tensor<2xi32>, %o: tensor<1x4x32x64xbf16>) -> tensor<1x4x32x64xbf16> {
  // expected-error @+1 {{'ttir.chunked_scaled_dot_product_attention' op Chunk start index must have shape [1] (a single prefix offset shared by all users).}}
  %0 = "ttir.chunked_scaled_dot_product_attention"(%q, %k, %k, %t, %s, %o) : (tensor<1x4x32x64xbf16>, tensor<8x4x32x64xbf16>, tensor<8x4x32x64xbf16>, tensor<1x8xi32>, tensor<2xi32>, tensor<1x4x32x64xbf16>) -> tensor<1x4x32x64xbf16>
  return %0 : tensor<1x4x32x64xbf16>
}

// -----
func.func @latent_heads(%q: tensor<1x1x32x64xbf16>, %k: tensor<8x2x32x64xbf16>, %t: tensor<1x8xi32>) -> tensor<1x1x32x64xbf16> {
  // expected-error @+1 {{'ttir.paged_flash_multi_latent_attention_decode' op Key num KV heads (nkv) must be 1, got 2.}}
  %0 = "ttir.paged_flash_multi_latent_attention_decode"(%q, %k, %t) <{head_dim_v = 64 : ui32, operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 0, 0>}> : (tensor<1x1x32x64xbf16>, tensor<8x2x32x64xbf16>, tensor<1x8xi32>) -> tensor<1x1x32x64xbf16>
  return %0 : tensor<1x1x32x64xbf16>
}
