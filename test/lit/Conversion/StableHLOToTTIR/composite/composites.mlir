// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s
// tt-xla's composites become the TTIR op; the custom call --flatten-or-convert-composites makes of one too.

module @composites {
  // CHECK-LABEL: func.func @values_only
  func.func @values_only(%x: tensor<4x64xf32>) -> tensor<4x8xf32> {
    // CHECK: %[[V:.*]], %{{.*}} = "ttir.topk"(%arg0) <{dim = -1 : i32, k = 8 : i32, largest = false, sorted = false}> : (tensor<4x64xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
    // CHECK: return %[[V]]
    %0 = stablehlo.composite "tenstorrent.topk_values" %x {composite_attributes = {k = 8 : i64, largest = false}, decomposition = @values_impl} : (tensor<4x64xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  func.func private @values_impl(%x: tensor<4x64xf32>) -> tensor<4x8xf32> {
    %0 = stablehlo.slice %x [0:4, 0:8] : (tensor<4x64xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }

  // CHECK-LABEL: func.func @sharded_gather
  func.func @sharded_gather(%d: tensor<8x4xf32>, %i: tensor<3x4xui32>) -> tensor<3x4xf32> {
    // ui32 indices are taken as they are
    // CHECK-NOT: ttir.typecast
    // CHECK: "ttir.gather"(%arg0, %arg1) <{dim = 0 : i32}>
    %0 = stablehlo.custom_call @tenstorrent.gather_dim(%d, %i) {tt.composite_attributes = {dim = 0 : i64}, tt.has_custom_sharding} : (tensor<8x4xf32>, tensor<3x4xui32>) -> tensor<3x4xf32>
    return %0 : tensor<3x4xf32>
  }

  // CHECK-LABEL: func.func @causal_rank3
  func.func @causal_rank3(%q: tensor<2x32x16xbf16>, %m: tensor<32x32xbf16>) -> tensor<2x32x16xbf16> {
    // a causal composite ignores its mask; rank-3 operands get a unit head dim and the result loses it
    // CHECK: %[[Q:.*]] = "ttir.reshape"(%arg0) <{shape = [2 : i32, 1 : i32, 32 : i32, 16 : i32]}>
    // CHECK: %[[A:.*]] = "ttir.scaled_dot_product_attention"(%[[Q]], %[[Q]], %[[Q]])
    // CHECK-SAME: operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>
    // CHECK-SAME: -> tensor<2x1x32x16xbf16>
    // CHECK: "ttir.reshape"(%[[A]]) <{shape = [2 : i32, 32 : i32, 16 : i32]}>
    %0 = stablehlo.composite "tenstorrent.scaled_dot_product_attention" %q, %q, %q, %m {composite_attributes = {is_causal = true}, decomposition = @sdpa_impl} : (tensor<2x32x16xbf16>, tensor<2x32x16xbf16>, tensor<2x32x16xbf16>, tensor<32x32xbf16>) -> tensor<2x32x16xbf16>
    return %0 : tensor<2x32x16xbf16>
  }
  func.func private @sdpa_impl(%q: tensor<2x32x16xbf16>, %k: tensor<2x32x16xbf16>, %v: tensor<2x32x16xbf16>, %m: tensor<32x32xbf16>) -> tensor<2x32x16xbf16> {
    return %q : tensor<2x32x16xbf16>
  }
}

