// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.sparse_matmul' op Output shape must be [A, B, 1, E, M, N] for dense-sparse mode}}
module {
  func.func @gate_shape(%a: tensor<2x4x32x64xf32>, %b: tensor<1x4x64x32xf32>, %s: tensor<2x4x1x4xf32>) -> tensor<2x4x1x4x32x64xf32> {
    %0 = "ttir.sparse_matmul"(%a, %b, %s) : (tensor<2x4x32x64xf32>, tensor<1x4x64x32xf32>, tensor<2x4x1x4xf32>) -> tensor<2x4x1x4x32x64xf32>
    return %0 : tensor<2x4x1x4x32x64xf32>
  }
}

// -----
// expected-error @+3 {{'ttir.sparse_matmul' op Sparsity tensor last dimension must match number of experts in Input B}}
module {
  func.func @mask_experts(%a: tensor<8x4x32x64xf32>, %b: tensor<1x4x64x32xf32>, %s: tensor<1x1x8x2xf32>) -> tensor<8x4x32x32xf32> {
    %0 = "ttir.sparse_matmul"(%a, %b, %s) <{is_input_a_sparse = true, is_input_b_sparse = false}> : (tensor<8x4x32x64xf32>, tensor<1x4x64x32xf32>, tensor<1x1x8x2xf32>) -> tensor<8x4x32x32xf32>
    return %0 : tensor<8x4x32x32xf32>
  }
}

// -----
// expected-error @+3 {{'ttir.topk_router_gpt' op num_experts attribute (64) must equal weight dim 1 (128)}}
module {
  func.func @experts(%x: tensor<32x64xbf16>, %w: tensor<64x128xbf16>, %b: tensor<32x128xbf16>) -> (tensor<32x4xui16>, tensor<32x4xbf16>) {
    %i, %v = "ttir.topk_router_gpt"(%x, %w, %b) <{k = 4 : i32, num_experts = 64 : i32}> : (tensor<32x64xbf16>, tensor<64x128xbf16>, tensor<32x128xbf16>) -> (tensor<32x4xui16>, tensor<32x4xbf16>)
    return %i, %v : tensor<32x4xui16>, tensor<32x4xbf16>
  }
}

// -----
// The fused kernel routes 32 tokens over 128 experts.
// expected-error @+3 {{'ttnn.topk_router_gpt' op B must be 32, but got: 16}}
module {
  func.func @tokens(%x: tensor<16x64xbf16>, %w: tensor<64x128xbf16>, %b: tensor<16x128xbf16>) -> (tensor<16x8xui16>, tensor<16x8xbf16>) {
    %i, %v = "ttnn.topk_router_gpt"(%x, %w, %b) <{k = 8 : i32, num_experts = 128 : i32}> : (tensor<16x64xbf16>, tensor<64x128xbf16>, tensor<16x128xbf16>) -> (tensor<16x8xui16>, tensor<16x8xbf16>)
    return %i, %v : tensor<16x8xui16>, tensor<16x8xbf16>
  }
}

// -----
// expected-error @+3 {{'ttir.all_to_all_dispatch' op dispatched output must be [1, 4, 16, 64] (the line's 4 devices' tokens, batch first)}}
module {
  func.func @dispatch_rows(%x: tensor<1x1x16x64xbf16>, %i: tensor<1x1x16x2xi32>, %m: tensor<1x1x8x4xi32>) -> (tensor<1x2x16x64xbf16>, tensor<1x4x16x2xi32>) {
    %0, %1 = "ttir.all_to_all_dispatch"(%x, %i, %m) <{cluster_axis = 0 : i64, num_devices = 4 : i64}> : (tensor<1x1x16x64xbf16>, tensor<1x1x16x2xi32>, tensor<1x1x8x4xi32>) -> (tensor<1x2x16x64xbf16>, tensor<1x4x16x2xi32>)
    return %0, %1 : tensor<1x2x16x64xbf16>, tensor<1x4x16x2xi32>
  }
}

// -----
// expected-error @+3 {{'ttnn.all_to_all_combine' op output_shard_dim must be 1 or 2, got 0}}
module {
  func.func @combine_shard_dim(%x: tensor<2x2x16x64xbf16>, %m: tensor<1x2x16x2xi32>, %map: tensor<1x1x4x2xi32>) -> tensor<2x1x16x64xbf16> {
    %0 = "ttnn.all_to_all_combine"(%x, %m, %map) <{cluster_axis = 1 : i64, num_devices = 2 : i64, num_experts_per_tok = 2 : i64, output_shard_dim = 0 : i64}> : (tensor<2x2x16x64xbf16>, tensor<1x2x16x2xi32>, tensor<1x1x4x2xi32>) -> tensor<2x1x16x64xbf16>
    return %0 : tensor<2x1x16x64xbf16>
  }
}

// -----
// expected-error @+3 {{'ttir.all_to_all_combine' op result must be [2, 2, 8, 64] (K, and the tokens of one of 2 devices split along dimension 2)}}
module {
  func.func @combine_share(%x: tensor<2x2x16x64xbf16>, %m: tensor<1x2x16x2xi32>, %map: tensor<1x1x4x2xi32>) -> tensor<2x1x16x64xbf16> {
    %0 = "ttir.all_to_all_combine"(%x, %m, %map) <{cluster_axis = 1 : i64, num_devices = 2 : i64, num_experts_per_tok = 2 : i64}> : (tensor<2x2x16x64xbf16>, tensor<1x2x16x2xi32>, tensor<1x1x4x2xi32>) -> tensor<2x1x16x64xbf16>
    return %0 : tensor<2x1x16x64xbf16>
  }
}

// -----
// expected-error @+3 {{'ttir.moe_expert_token_remap' op outputs must be the tokens of topk_tensor by the 2 experts of a device, and [1, 1, 4, 2] blocks of 4 tokens}}
module {
  func.func @remap_blocks(%s: tensor<1x1x16x4xbf16>, %map: tensor<1x1x4x2xi32>, %meta: tensor<1x1x16x2xi32>) -> (tensor<1x1x16x2xbf16>, tensor<1x1x2x2xbf16>) {
    %0, %1 = "ttir.moe_expert_token_remap"(%s, %map, %meta) <{reduction_size = 4 : i64}> : (tensor<1x1x16x4xbf16>, tensor<1x1x4x2xi32>, tensor<1x1x16x2xi32>) -> (tensor<1x1x16x2xbf16>, tensor<1x1x2x2xbf16>)
    return %0, %1 : tensor<1x1x16x2xbf16>, tensor<1x1x2x2xbf16>
  }
}

// -----
// expected-error @+3 {{'ttnn.all_to_all_dispatch_metadata' op dispatched_buffer, indices_buffer and scores_buffer must be all bound or all unbound}}
module {
  func.func @half_bound(%x: tensor<1x1x16x64xbf16>, %i: tensor<1x1x16x2xi32>, %s: tensor<1x1x16x2xbf16>, %m: tensor<2x4xi32>, %b: tensor<1x32x64xbf16>) -> tensor<1x32x64xbf16> {
    %0, %1, %2 = "ttnn.all_to_all_dispatch_metadata"(%x, %i, %s, %m, %b) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>, cluster_axis = 1 : i64, num_devices = 2 : i64}> : (tensor<1x1x16x64xbf16>, tensor<1x1x16x2xi32>, tensor<1x1x16x2xbf16>, tensor<2x4xi32>, tensor<1x32x64xbf16>) -> (tensor<1x32x64xbf16>, tensor<1x32x2xi32>, tensor<1x32x2xbf16>)
    return %0 : tensor<1x32x64xbf16>
  }
}

// -----
// expected-error @+3 {{'ttir.all_to_all_dispatch_metadata' op results must be [1, 32, 64], [1, 32, 2] and [1, 32, 2] (the line's tokens)}}
module {
  func.func @metadata_rows(%x: tensor<1x1x16x64xbf16>, %i: tensor<1x1x16x2xi32>, %s: tensor<1x1x16x2xbf16>, %m: tensor<1x1x2x4xi32>) -> tensor<1x16x64xbf16> {
    %0, %1, %2 = "ttir.all_to_all_dispatch_metadata"(%x, %i, %s, %m) <{cluster_axis = 1 : i64, num_devices = 2 : i64}> : (tensor<1x1x16x64xbf16>, tensor<1x1x16x2xi32>, tensor<1x1x16x2xbf16>, tensor<1x1x2x4xi32>) -> (tensor<1x16x64xbf16>, tensor<1x32x2xi32>, tensor<1x32x2xbf16>)
    return %0 : tensor<1x16x64xbf16>
  }
}

// -----
// expected-error @+3 {{'ttir.sampling' op p batch dimension (2) must match input_values batch (4)}}
module {
  func.func @sampling_p(%v: tensor<4x64xbf16>, %i: tensor<4x64xi32>, %k: tensor<4xi32>, %p: tensor<2xbf16>, %t: tensor<4xbf16>) -> tensor<4xi32> {
    %0 = "ttir.sampling"(%v, %i, %k, %p, %t) : (tensor<4x64xbf16>, tensor<4x64xi32>, tensor<4xi32>, tensor<2xbf16>, tensor<4xbf16>) -> tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}

// -----
// expected-error @+3 {{'ttnn.sampling' op result rank (1) must match expected rank (4) for input_values rank 4}}
module {
  func.func @sampling_rank(%v: tensor<1x1x4x64xbf16>, %i: tensor<1x1x4x64xi32>, %k: tensor<4xui32>, %p: tensor<4xbf16>, %t: tensor<4xbf16>) -> tensor<4xui32> {
    %0 = "ttnn.sampling"(%v, %i, %k, %p, %t) : (tensor<1x1x4x64xbf16>, tensor<1x1x4x64xi32>, tensor<4xui32>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xui32>
    return %0 : tensor<4xui32>
  }
}
