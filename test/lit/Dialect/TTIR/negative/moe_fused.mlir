// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.moe_compute' op bias_0, bias_1, and bias_2 must be all present or all absent}}
module {
  func.func @one_bias(%x: tensor<1x64x64xbf16>, %i: tensor<1x64x2xi32>, %s: tensor<1x64x2xbf16>, %m: tensor<1x4xi32>, %w0: tensor<1x2x64x32xbf16>, %w2: tensor<1x2x32x64xbf16>, %b0: tensor<1x2x32xbf16>) -> tensor<2x32x64xbf16> {
    %0 = "ttir.moe_compute"(%x, %i, %s, %m, %w0, %w0, %w2, %b0) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 0, 0>, layer_id = 0 : ui32, output_height_shard_dim = 4 : ui32, intermediate_size = 32 : ui32, cluster_axis = 1 : ui32}> : (tensor<1x64x64xbf16>, tensor<1x64x2xi32>, tensor<1x64x2xbf16>, tensor<1x4xi32>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32xbf16>) -> tensor<2x32x64xbf16>
    return %0 : tensor<2x32x64xbf16>
  }
}

// -----
// expected-error @+3 {{'ttir.moe_compute' op bias_2 must have shape (1, 2, 64)}}
module {
  func.func @bias_shape(%x: tensor<1x64x64xbf16>, %i: tensor<1x64x2xi32>, %s: tensor<1x64x2xbf16>, %m: tensor<1x4xi32>, %w0: tensor<1x2x64x32xbf16>, %w2: tensor<1x2x32x64xbf16>, %b0: tensor<1x2x32xbf16>) -> tensor<2x32x64xbf16> {
    %0 = "ttir.moe_compute"(%x, %i, %s, %m, %w0, %w0, %w2, %b0, %b0, %b0) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1>, layer_id = 0 : ui32, output_height_shard_dim = 4 : ui32, intermediate_size = 32 : ui32, cluster_axis = 1 : ui32}> : (tensor<1x64x64xbf16>, tensor<1x64x2xi32>, tensor<1x64x2xbf16>, tensor<1x4xi32>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32xbf16>, tensor<1x2x32xbf16>, tensor<1x2x32xbf16>) -> tensor<2x32x64xbf16>
    return %0 : tensor<2x32x64xbf16>
  }
}

// -----
// expected-error @+3 {{'ttir.moe_compute' op output_height_shard_dim must be positive}}
module {
  func.func @shard_height(%x: tensor<1x64x64xbf16>, %i: tensor<1x64x2xi32>, %s: tensor<1x64x2xbf16>, %m: tensor<1x4xi32>, %w0: tensor<1x2x64x32xbf16>, %w2: tensor<1x2x32x64xbf16>) -> tensor<2x32x64xbf16> {
    %0 = "ttir.moe_compute"(%x, %i, %s, %m, %w0, %w0, %w2) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>, layer_id = 0 : ui32, output_height_shard_dim = 0 : ui32, intermediate_size = 32 : ui32, cluster_axis = 1 : ui32}> : (tensor<1x64x64xbf16>, tensor<1x64x2xi32>, tensor<1x64x2xbf16>, tensor<1x4xi32>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x32x64xbf16>) -> tensor<2x32x64xbf16>
    return %0 : tensor<2x32x64xbf16>
  }
}

// -----
// expected-error @+3 {{'ttir.moe_compute' op tilize_input_tensor last dim (hidden_size) must be a positive multiple of 32}}
module {
  func.func @hidden_tiles(%x: tensor<1x64x48xbf16>, %i: tensor<1x64x2xi32>, %s: tensor<1x64x2xbf16>, %m: tensor<1x4xi32>, %w0: tensor<1x2x48x32xbf16>, %w2: tensor<1x2x32x48xbf16>) -> tensor<2x32x48xbf16> {
    %0 = "ttir.moe_compute"(%x, %i, %s, %m, %w0, %w0, %w2) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>, layer_id = 0 : ui32, output_height_shard_dim = 4 : ui32, intermediate_size = 32 : ui32, cluster_axis = 1 : ui32}> : (tensor<1x64x48xbf16>, tensor<1x64x2xi32>, tensor<1x64x2xbf16>, tensor<1x4xi32>, tensor<1x2x48x32xbf16>, tensor<1x2x48x32xbf16>, tensor<1x2x32x48xbf16>) -> tensor<2x32x48xbf16>
    return %0 : tensor<2x32x48xbf16>
  }
}

// -----
// expected-error @+3 {{'ttir.moe_compute' op w0 hidden dim (128) must match tilize_input_tensor hidden_size (64)}}
module {
  func.func @w0_hidden(%x: tensor<1x64x64xbf16>, %i: tensor<1x64x2xi32>, %s: tensor<1x64x2xbf16>, %m: tensor<1x4xi32>, %w0: tensor<1x2x128x32xbf16>, %w2: tensor<1x2x32x64xbf16>) -> tensor<2x32x64xbf16> {
    %0 = "ttir.moe_compute"(%x, %i, %s, %m, %w0, %w0, %w2) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>, layer_id = 0 : ui32, output_height_shard_dim = 4 : ui32, intermediate_size = 32 : ui32, cluster_axis = 1 : ui32}> : (tensor<1x64x64xbf16>, tensor<1x64x2xi32>, tensor<1x64x2xbf16>, tensor<1x4xi32>, tensor<1x2x128x32xbf16>, tensor<1x2x128x32xbf16>, tensor<1x2x32x64xbf16>) -> tensor<2x32x64xbf16>
    return %0 : tensor<2x32x64xbf16>
  }
}

// -----
// expected-error @+3 {{'ttir.moe_gpt' op w0_w1_tensor and w2_tensor must have same dim[2] (experts_per_device)}}
module {
  func.func @gpt_experts(%x: tensor<128x2880xbf16>, %i: tensor<128x4xui16>, %s: tensor<128x4xbf16>, %m: tensor<1x16xui16>, %w01: tensor<12x1x4x4x2880x128xbf16>, %w2: tensor<12x1x2x2x2880x128xbf16>) -> tensor<1x16xui32> {
    %0, %1, %2, %3, %4 = "ttir.moe_gpt"(%x, %i, %s, %m, %w01, %w2) : (tensor<128x2880xbf16>, tensor<128x4xui16>, tensor<128x4xbf16>, tensor<1x16xui16>, tensor<12x1x4x4x2880x128xbf16>, tensor<12x1x2x2x2880x128xbf16>) -> (tensor<1x16xui32>, tensor<1x512xui32>, tensor<4x129xui32>, tensor<12x2x32x2880xbf16>, tensor<12x2x32x2880xbf16>)
    return %0 : tensor<1x16xui32>
  }
}

// -----
// expected-error @+3 {{'ttir.moe_gpt' op expert_scores must have rank >= 2}}
module {
  func.func @gpt_scores(%x: tensor<128x2880xbf16>, %i: tensor<128x4xui16>, %s: tensor<512xbf16>, %m: tensor<1x16xui16>, %w01: tensor<12x1x4x4x2880x128xbf16>, %w2: tensor<12x1x4x2x2880x128xbf16>) -> tensor<1x16xui32> {
    %0, %1, %2, %3, %4 = "ttir.moe_gpt"(%x, %i, %s, %m, %w01, %w2) : (tensor<128x2880xbf16>, tensor<128x4xui16>, tensor<512xbf16>, tensor<1x16xui16>, tensor<12x1x4x4x2880x128xbf16>, tensor<12x1x4x2x2880x128xbf16>) -> (tensor<1x16xui32>, tensor<1x512xui32>, tensor<4x129xui32>, tensor<12x2x32x2880xbf16>, tensor<12x2x32x2880xbf16>)
    return %0 : tensor<1x16xui32>
  }
}

// -----
// expected-error @+3 {{'ttir.selective_reduce_combine' op experts must be positive}}
module {
  func.func @no_experts(%a: tensor<16x128x1x2880xbf16>, %t: tensor<1x128x1x4xi64>, %c: tensor<1x128x1x1xi64>) -> tensor<16x128x1x2880xbf16> {
    %0 = "ttir.selective_reduce_combine"(%a, %a, %t, %c) <{hidden_size = 2880 : ui32, batch_size = 128 : ui32, seq_size = 1 : ui32, select_experts_k = 4 : ui32, experts = 0 : ui32}> : (tensor<16x128x1x2880xbf16>, tensor<16x128x1x2880xbf16>, tensor<1x128x1x4xi64>, tensor<1x128x1x1xi64>) -> tensor<16x128x1x2880xbf16>
    return %0 : tensor<16x128x1x2880xbf16>
  }
}

// -----
// expected-error @+3 {{'ttnn.prepare_moe_compute_w2_weights' op hidden_size must be a positive multiple of 32}}
module {
  func.func @pack_hidden(%w2: tensor<1x2x32x48xbf16>, %d: !ttnn.device) -> tensor<1x2x32x48xbf16> {
    %0 = "ttnn.prepare_moe_compute_w2_weights"(%w2, %d) <{hidden_size = 48 : ui32, intermediate_size = 32 : ui32}> : (tensor<1x2x32x48xbf16>, !ttnn.device) -> tensor<1x2x32x48xbf16>
    return %0 : tensor<1x2x32x48xbf16>
  }
}
