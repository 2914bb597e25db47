// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// tt-metal's transformer helpers are checked in upstream's words.
#dram = #ttnn.buffer_type<dram>
#l = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 128 + d1 * 32 + d2, d3), <1x1>, memref<4x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#o = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
func.func @concat_heads_wrong_width(%arg0: tensor<1x4x32x32xbf16, #l>) -> tensor<1x1x32x64xbf16, #o> {
  // expected-error @+1 {{'ttnn.nlp_concat_heads' op expected output shape (1, 1, 32, 128), got (1, 1, 32, 64)}}
  %0 = "ttnn.nlp_concat_heads"(%arg0) : (tensor<1x4x32x32xbf16, #l>) -> tensor<1x1x32x64xbf16, #o>
  return %0 : tensor<1x1x32x64xbf16, #o>
}

// -----
#dram = #ttnn.buffer_type<dram>
#l = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3), <1x1>, memref<32x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#o = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x80x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
func.func @concat_heads_decode_too_many_heads(%arg0: tensor<1x32x32x64xbf16, #l>) -> tensor<1x1x32x2560xbf16, #o> {
  // expected-error @+1 {{'ttnn.nlp_concat_heads_decode' op num_heads attribute must be less than or equal to input num_heads dimension, got num_heads = 40, input num_heads dimension = 32}}
  %0 = "ttnn.nlp_concat_heads_decode"(%arg0) <{num_heads = 40 : ui32}> : (tensor<1x32x32x64xbf16, #l>) -> tensor<1x1x32x2560xbf16, #o>
  return %0 : tensor<1x1x32x2560xbf16, #o>
}

// -----
#dram = #ttnn.buffer_type<dram>
#l = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 64 + d1 * 32 + d2, d3), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#t = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 64 + d1 * 64 + d2, d3), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
func.func @llama_rotation_matrix_not_a_tile(%x: tensor<1x2x32x64xbf16, #l>, %cos: tensor<1x2x32x64xbf16, #l>, %sin: tensor<1x2x32x64xbf16, #l>, %t: tensor<1x1x64x64xbf16, #t>) -> tensor<1x2x32x64xbf16, #l> {
  // expected-error @+1 {{'ttnn.rotary_embedding_llama' op transformation matrix must have shape (1,1,32,32) but got (1,1,64,64).}}
  %0 = "ttnn.rotary_embedding_llama"(%x, %cos, %sin, %t) : (tensor<1x2x32x64xbf16, #l>, tensor<1x2x32x64xbf16, #l>, tensor<1x2x32x64xbf16, #l>, tensor<1x1x64x64xbf16, #t>) -> tensor<1x2x32x64xbf16, #l>
  return %0 : tensor<1x2x32x64xbf16, #l>
}

// -----
func.func @post_all_gather_weight_too_short(%x: tensor<1x1x32x128xbf16>, %stats: tensor<1x1x32x128xbf16>, %w: tensor<64xbf16>) -> tensor<1x1x32x128xbf16> {
  // expected-error @+1 {{'ttnn.layer_norm_post_all_gather' op weight tensor must be 1D with size matching the last dimension of input}}
  %0 = "ttnn.layer_norm_post_all_gather"(%x, %stats, %w) <{epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (tensor<1x1x32x128xbf16>, tensor<1x1x32x128xbf16>, tensor<64xbf16>) -> tensor<1x1x32x128xbf16>
  return %0 : tensor<1x1x32x128xbf16>
}

// -----
func.func @rms_stats_too_wide(%x: tensor<1x1x32x128xbf16>) -> tensor<1x1x32x64xbf16> {
  // expected-error @+1 {{'ttnn.rms_norm_pre_all_gather' op output last dimension must be 32 (TILE_WIDTH) for rms norm partial statistics, got 64}}
  %0 = "ttnn.rms_norm_pre_all_gather"(%x) : (tensor<1x1x32x128xbf16>) -> tensor<1x1x32x64xbf16>
  return %0 : tensor<1x1x32x64xbf16>
}
