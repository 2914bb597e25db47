// RUN: ttmlir-opt "--ttir-bufferization-pipeline=ttnn-mode=true" %s | FileCheck %s
// In TTNN mode the function keeps its TTNN tensors (TTNN allocates them, a TTNN d2m.empty stays); the casts to
// metal layouts become casts to buffers, the generic and its CBs work on those buffers.

#l1 = #ttnn.buffer_type<l1>
#ttnn_l1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (0, 0)>]>>
#metal = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, -1]]> : tensor<1x2xi64>, l1, sharded>
!ttnn = tensor<64x64xbf16, #ttnn_l1>
!dev = tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #metal>
!blk = tensor<2x2x!ttcore.tile<32x32, bf16>>

// CHECK-LABEL: func.func @negate(%arg0: tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout>
// CHECK: %[[IN:.*]] = ttir.ttnn_metal_layout_cast %arg0 : tensor<64x64xbf16, #ttnn_layout> -> memref<1x1x2x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<4096x2048, 1>, #l1>
// CHECK: %[[E:.*]] = d2m.empty() : tensor<64x64xbf16, #ttnn_layout>
// CHECK: %[[OUT:.*]] = ttir.ttnn_metal_layout_cast %[[E]] : tensor<64x64xbf16, #ttnn_layout> -> memref<
// CHECK: d2m.generic
// CHECK-NEXT: ins(%[[IN]] : memref<
// CHECK-NEXT: outs(%[[OUT]] : memref<
// CHECK: d2m.get_cb(1) : <memref<2x2x!ttcore.tile<32x32, bf16>, #l1>>
// CHECK: d2m.reserve %{{.*}} -> memref<2x2x!ttcore.tile<32x32, bf16>, #l1>
// CHECK: %[[R:.*]] = ttir.ttnn_metal_layout_cast %[[OUT]] : memref<{{.*}}> -> tensor<64x64xbf16, #ttnn_layout>
// CHECK: return %[[R]]
func.func @negate(%arg0: !ttnn) -> !ttnn {
  %in = ttir.ttnn_metal_layout_cast %arg0 : !ttnn -> !dev
  %e = d2m.empty() : !ttnn
  %out = ttir.ttnn_metal_layout_cast %e : !ttnn -> !dev
  %r = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [#ttcore.iterator_type<parallel>, #ttcore.iterator_type<parallel>], threads = [#d2m.thread<compute>]}
      ins(%in : !dev) outs(%out : !dev) {
  ^compute0:
    %cb_in = d2m.get_cb(0) : !d2m.cb<!blk>
    %cb_out = d2m.get_cb(1) : !d2m.cb<!blk>
    %o = d2m.reserve %cb_out : !d2m.cb<!blk> -> !blk
    d2m.yield %o : (!blk)
  } : !dev
  %back = ttir.ttnn_metal_layout_cast %out : !dev -> !ttnn
  return %back : !ttnn
}
