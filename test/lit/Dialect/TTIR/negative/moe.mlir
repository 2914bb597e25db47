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
