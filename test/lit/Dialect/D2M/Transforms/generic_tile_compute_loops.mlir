// RUN: ttmlir-opt --ttcore-register-device --d2m-generic-tile-compute-loops %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --d2m-generic-tile-compute-loops="max-dst-physical-size-tiles=2" %s | FileCheck %s --check-prefix=CAP
// A bf16 SFPU op on a 2x8 block: DST holds 8 / 2 = 4 tiles of it per flip, so the 16 tiles are 4 flips, done in 2
// outer iterations of 8 tiles (one row each: scf.for over rows, step 1) and, inside, 2 flips of 4 tiles (affine.for
// over the row's columns, step 4), each on subviews. With DST capped at 2 tiles (1 per SFPU flip) each flip is one
// tile, in 8 outer iterations of 2 tiles. The consumer of a buffer the first op wrote waits for its packing first.

#l1 = #ttcore.memory_space<l1>
!t = !ttcore.tile<32x32, bf16>
!block = memref<2x8x!ttcore.tile<32x32, bf16>, #l1>
!cb = !d2m.cb<memref<2x8x!ttcore.tile<32x32, bf16>, #l1>>
!shard = memref<1x1x2x8x!ttcore.tile<32x32, bf16>, #ttcore.shard<16384x2048, 1>, #l1>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @two_level
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[X:.*]] = memref.subview %{{.*}}[%[[R]], %[[C]]] [1, 8] [1, 1] : memref<2x8x!ttcore.tile<32x32, bf16>, #l1> to memref<1x8x!ttcore.tile<32x32, bf16>, strided<[8, 1], offset: ?>, #l1>
// CHECK-NEXT: %[[Y:.*]] = memref.subview %{{.*}}[%[[R]], %[[C]]] [1, 8] [1, 1]
// CHECK: affine.for %[[I:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 8 step 4 {
// CHECK-NEXT: %[[XX:.*]] = memref.subview %[[X]][%[[I]], %[[J]]] [1, 4] [1, 1] : memref<1x8x!ttcore.tile<32x32, bf16>, strided<[8, 1], offset: ?>, #l1> to memref<1x4x!ttcore.tile<32x32, bf16>, strided<[8, 1], offset: ?>, #l1>
// CHECK-NEXT: %[[YY:.*]] = memref.subview %[[Y]][%[[I]], %[[J]]] [1, 4] [1, 1]
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[XX]] : {{.*}}) outs(%[[YY]] : {{.*}})
// CHECK: "d2m.tile_exp"
// CHECK: } {d2m.scratch_space_loop}
// CHECK: d2m.unpack_stall_on_pack
// CHECK: scf.for
// CHECK: "d2m.tile_sin"
// CAP-LABEL: func.func @two_level
// CAP: memref.subview %{{.*}}[%{{.*}}, %{{.*}}] [1, 2] [1, 1]
// CAP: affine.for %{{.*}} = 0 to 1 {
// CAP-NEXT: affine.for %{{.*}} = 0 to 2 {
func.func @two_level(%a: !shard, %out: !shard) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !shard) outs(%out : !shard) {
  ^unified0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %x = d2m.wait %cb0 : !cb -> !block
    %y = d2m.reserve %cb1 : !cb -> !block
    %tmp = memref.alloc() : !block
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : !block) outs(%tmp : !block) {
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
