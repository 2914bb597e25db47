// RUN: ttmlir-opt --d2m-insert-scratch-buffers %s | FileCheck %s
// A compute generic fused from two linalg ops gets a 128 KiB L1 scratch buffer of its input's tile type (bf16:
// 2048-byte tiles, 64 of them) anchored by d2m.scratch_init; the blocking map of a fused op moves to its output's
// alloc. A single linalg op needs no scratch.

#l1 = #ttcore.memory_space<l1>
!t = !ttcore.tile<32x32, bf16>
!block = memref<1x1x!ttcore.tile<32x32, bf16>, #l1>
!cb = !d2m.cb<memref<1x1x!ttcore.tile<32x32, bf16>, #l1>>
!shard = memref<1x1x1x1x!ttcore.tile<32x32, bf16>, #ttcore.shard<2048x2048, 1>, #l1>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @fused
// CHECK: d2m.generic
// CHECK: %[[S:.*]] = memref.alloc() {d2m.scratch_buffer} : memref<1x64x!ttcore.tile<32x32, bf16>, #l1>
// CHECK-NEXT: d2m.scratch_init %[[S]] : memref<1x64x!ttcore.tile<32x32, bf16>, #l1>
// CHECK: memref.alloc() {d2m.blocking_map = #map} : memref<1x1x!ttcore.tile<32x32, bf16>, #l1>
// CHECK-NOT: d2m.blocking_map
// CHECK: return
func.func @fused(%a: !shard, %out: !shard) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !shard) outs(%out : !shard) {
  ^unified0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %x = d2m.wait %cb0 : !cb -> !block
    %y = d2m.reserve %cb1 : !cb -> !block
    %tmp = memref.alloc() : !block
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : !block) outs(%tmp : !block) attrs = {d2m.blocking_map = #id} {
    ^bb0(%i: !t, %o: !t):
      %0 = "d2m.tile_exp"(%i) : (!t) -> !t
      linalg.yield %0 : !t
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%tmp : !block) outs(%y : !block) {
    ^bb0(%i: !t, %o: !t):
      %0 = "d2m.tile_sin"(%i) : (!t) -> !t
      linalg.yield %0 : !t
    }
  }
  return
}

// CHECK-LABEL: func.func @single
// CHECK-NOT: scratch
// CHECK: return
func.func @single(%a: !shard, %out: !shard) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !shard) outs(%out : !shard) {
  ^unified0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %x = d2m.wait %cb0 : !cb -> !block
    %y = d2m.reserve %cb1 : !cb -> !block
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : !block) outs(%y : !block) {
    ^bb0(%i: !t, %o: !t):
      %0 = "d2m.tile_exp"(%i) : (!t) -> !t
      linalg.yield %0 : !t
    }
  }
  return
}
