// RUN: ttmlir-opt --d2m-insert-scratch-buffers %s | FileCheck %s
// A fused generic (two linalg.generics in its region) gets a 128 KB scratch buffer of its first tiled operand's tiles
// (bf16: 64 tiles) at the top of its region; one with a single linalg.generic gets none; a blocking map left on a
// linalg.generic moves onto the alloc it writes.

!tile = !ttcore.tile<32x32, bf16>
!dev = memref<1x1x2x2x!tile, #ttcore.shard<4096x2048, 1>, #ttcore.memory_space<l1>>
!blk = memref<2x2x!tile, #ttcore.memory_space<l1>>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @fused
func.func @fused(%a: !dev, %out: !dev) {
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#ttcore.iterator_type<parallel>, #ttcore.iterator_type<parallel>], threads = [#d2m.thread<unified>]}
      ins(%a : !dev) outs(%out : !dev) {
  ^unified0:
    // CHECK: d2m.generic
    // CHECK: %[[S:.*]] = memref.alloc() {d2m.scratch_buffer} : memref<1x64x!ttcore.tile<32x32, bf16>, #l1>
    // CHECK-NEXT: d2m.scratch_init %[[S]]
    %x = memref.alloc() : !blk
    // CHECK: memref.alloc() {d2m.blocking_map = #map{{[0-9]*}}} : memref<2x2
    %y = memref.alloc() : !blk
    %z = memref.alloc() : !blk
    // CHECK: linalg.generic
    // CHECK-NOT: d2m.blocking_map
    // CHECK: linalg.generic
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : !blk) outs(%y : !blk) attrs = {d2m.blocking_map = affine_map<(d0, d1) -> (d1, d0)>} {
    ^bb0(%i: !tile, %o: !tile):
      %e = "d2m.tile_exp"(%i) : (!tile) -> !tile
      linalg.yield %e : !tile
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : !blk) outs(%z : !blk) {
    ^bb0(%i: !tile, %o: !tile):
      %e = "d2m.tile_log"(%i) : (!tile) -> !tile
      linalg.yield %e : !tile
    }
  }
  return
}

// CHECK-LABEL: func.func @single
func.func @single(%a: !dev, %out: !dev) {
  // CHECK-NOT: d2m.scratch_init
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#ttcore.iterator_type<parallel>, #ttcore.iterator_type<parallel>], threads = [#d2m.thread<unified>]}
      ins(%a : !dev) outs(%out : !dev) {
  ^unified0:
    %x = memref.alloc() : !blk
    %y = memref.alloc() : !blk
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : !blk) outs(%y : !blk) {
    ^bb0(%i: !tile, %o: !tile):
      %e = "d2m.tile_exp"(%i) : (!tile) -> !tile
      linalg.yield %e : !tile
    }
  }
  // CHECK: return
  return
}
