// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// ttml's training ops, in upstream's words.

func.func @grad_shape(%p: tensor<32x64xf32>, %g: tensor<64x32xf32>) -> tensor<32x64xf32> {
  // expected-error @+1 {{'ttir.adamw' op grad must have the same shape as param}}
  %0:3 = "ttir.adamw"(%p, %g, %p, %p) <{lr = 1.0e-02 : f32, beta1 = 0.9 : f32, beta2 = 0.99 : f32, beta1_pow = 0.9 : f32,
      beta2_pow = 0.99 : f32, epsilon = 1.0e-08 : f32, weight_decay = 0.0 : f32}>
      : (tensor<32x64xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>)
  return %0#0 : tensor<32x64xf32>
}

// -----
func.func @amsgrad_without_result(%p: tensor<32x64xf32>) -> tensor<32x64xf32> {
  // expected-error @+1 {{'ttir.adamw' op max_exp_avg_sq and max_exp_avg_sq_out must both be present or both be absent}}
  %0:3 = "ttir.adamw"(%p, %p, %p, %p, %p) <{lr = 1.0e-02 : f32, beta1 = 0.9 : f32, beta2 = 0.99 : f32, beta1_pow = 0.9 : f32,
      beta2_pow = 0.99 : f32, epsilon = 1.0e-08 : f32, weight_decay = 0.0 : f32}>
      : (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>)
  return %0#0 : tensor<32x64xf32>
}

// -----
func.func @arbitrary_without_mask(%q: tensor<1x4x32x64xbf16>) -> tensor<1x4x32x64xbf16> {
  // expected-error @+1 {{'ttir.sdpa_fw' op attention_mask is required when mask_type is 'arbitrary'}}
  %0 = "ttir.sdpa_fw"(%q, %q, %q) <{mask_type = #ttcore.attention_mask_type<arbitrary>}> : (tensor<1x4x32x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x4x32x64xbf16>) -> tensor<1x4x32x64xbf16>
  return %0 : tensor<1x4x32x64xbf16>
}

// -----
func.func @heads_not_grouped(%q: tensor<1x4x32x64xbf16>, %k: tensor<1x3x32x64xbf16>) -> tensor<1x4x32x64xbf16> {
  // expected-error @+1 {{'ttir.sdpa_fw' op number of query heads must be a positive multiple of the number of key/value heads}}
  %0 = "ttir.sdpa_fw"(%q, %k, %k) : (tensor<1x4x32x64xbf16>, tensor<1x3x32x64xbf16>, tensor<1x3x32x64xbf16>) -> tensor<1x4x32x64xbf16>
  return %0 : tensor<1x4x32x64xbf16>
}

// -----
func.func @intermediates_width(%q: tensor<1x4x32x64xbf16>) -> tensor<1x4x32x64xbf16> {
  // expected-error @+1 {{'ttir.sdpa_fw' op intermediates must have shape (B, Hq, S, 32)}}
  %0, %1 = "ttir.sdpa_fw"(%q, %q, %q) <{return_intermediates = true}> : (tensor<1x4x32x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x4x32x64xbf16>) -> (tensor<1x4x32x64xbf16>, tensor<1x4x32x64xf32>)
  return %0 : tensor<1x4x32x64xbf16>
}

// -----
func.func @grad_key_shape(%q: tensor<1x4x32x64xbf16>, %k: tensor<1x2x32x64xbf16>, %l: tensor<1x4x32x32xf32>) -> tensor<1x4x32x64xbf16> {
  // expected-error @+1 {{'ttir.sdpa_bw' op grad_key must have the same shape as key}}
  %0, %1, %2 = "ttir.sdpa_bw"(%q, %q, %q, %k, %k, %l) <{mask_type = #ttcore.attention_mask_type<causal>}> : (tensor<1x4x32x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x4x32x32xf32>) -> (tensor<1x4x32x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x2x32x64xbf16>)
  return %0 : tensor<1x4x32x64xbf16>
}
