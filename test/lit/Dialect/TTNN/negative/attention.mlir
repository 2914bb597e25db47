// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// TTNN's attention ops: the wording differs from TTIR's where upstream's TTNN verifiers say it otherwise.

func.func @sdpa_mask_rows(%q: tensor<1x8x32x64xbf16>, %k: tensor<1x2x32x64xbf16>, %m: tensor<1x1x1x32xbf16>) -> tensor<1x8x32x64xbf16> {
  // expected-error @+1 {{'ttnn.scaled_dot_product_attention' op Attention mask at dim 2 must match query sequence length}}
  %0 = "ttnn.scaled_dot_product_attention"(%q, %k, %k, %m) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> : (tensor<1x8x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x1x1x32xbf16>) -> tensor<1x8x32x64xbf16>
  return %0 : tensor<1x8x32x64xbf16>
}

// -----
func.func @mla_prefill_value_width(%q: tensor<1x8x32x128xbf16>, %k: tensor<1x1x32x128xbf16>, %v: tensor<1x1x32x32xbf16>) -> tensor<1x8x32x64xbf16> {
  // expected-error @+1 {{'ttnn.flash_mla_prefill' op Value head size must equal head_dim_v}}
  %0 = "ttnn.flash_mla_prefill"(%q, %k, %v) <{head_dim_v = 64 : ui32, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (tensor<1x8x32x128xbf16>, tensor<1x1x32x128xbf16>, tensor<1x1x32x32xbf16>) -> tensor<1x8x32x64xbf16>
  return %0 : tensor<1x8x32x64xbf16>
}

// -----
func.func @mla_prefill_result(%q: tensor<1x8x32x128xbf16>, %k: tensor<1x1x32x128xbf16>) -> tensor<1x8x32x128xbf16> {
  // expected-error @+1 {{'ttnn.flash_mla_prefill' op Result shape must be [batch, num_query_heads, seq_len, head_dim_v]}}
  %0 = "ttnn.flash_mla_prefill"(%q, %k) <{head_dim_v = 64 : ui32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (tensor<1x8x32x128xbf16>, tensor<1x1x32x128xbf16>) -> tensor<1x8x32x128xbf16>
  return %0 : tensor<1x8x32x128xbf16>
}

// -----
func.func @indexer_batch(%q: tensor<2x4x32x64xbf16>, %k: tensor<2x1x96x64xbf16>, %w: tensor<2x4x32x1xbf16>) -> tensor<2x1x32x96xbf16> {
  // expected-error @+1 {{'ttnn.indexer_score_dsa' op Query batch size (dim 0) must be 1, got 2}}
  %0 = "ttnn.indexer_score_dsa"(%q, %k, %w) : (tensor<2x4x32x64xbf16>, tensor<2x1x96x64xbf16>, tensor<2x4x32x1xbf16>) -> tensor<2x1x32x96xbf16>
  return %0 : tensor<2x1x32x96xbf16>
}

// -----
func.func @indexer_weights(%q: tensor<1x4x32x64xbf16>, %k: tensor<1x1x96x64xbf16>, %w: tensor<1x4x32x2xbf16>) -> tensor<1x1x32x96xbf16> {
  // expected-error @+1 {{'ttnn.indexer_score_dsa' op Weights shape must be [batch, num_heads, query_seq_len, 1]}}
  %0 = "ttnn.indexer_score_dsa"(%q, %k, %w) : (tensor<1x4x32x64xbf16>, tensor<1x1x96x64xbf16>, tensor<1x4x32x2xbf16>) -> tensor<1x1x32x96xbf16>
  return %0 : tensor<1x1x32x96xbf16>
}
