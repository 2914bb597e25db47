// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @residual(%x: tensor<32x128xbf16>, %r: tensor<32x64xbf16>) -> tensor<32x128xbf16> {
  // expected-error @+1 {{'ttnn.dit_rms_norm_unary_fused' op residual_input tensor must have the same shape as input}}
  %0 = "ttnn.dit_rms_norm_unary_fused"(%x, %r) <{activation = "silu", operandSegmentSizes = array<i32: 1, 0, 0, 1>}> : (tensor<32x128xbf16>, tensor<32x64xbf16>) -> tensor<32x128xbf16>
  return %0 : tensor<32x128xbf16>
}

// -----

func.func @weight(%x: tensor<32x128xbf16>, %w: tensor<64xbf16>) -> tensor<32x128xbf16> {
  // expected-error @+1 {{'ttnn.dit_rms_norm_unary_fused' op weight tensor must be 1D with size matching the last dimension of input}}
  %0 = "ttnn.dit_rms_norm_unary_fused"(%x, %w) <{activation = "silu", operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (tensor<32x128xbf16>, tensor<64xbf16>) -> tensor<32x128xbf16>
  return %0 : tensor<32x128xbf16>
}
