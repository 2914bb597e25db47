// RUN: ttmlir-opt --d2m-op-scheduler %s | FileCheck %s
// RUN: ttmlir-opt --d2m-op-scheduler="enable-op-scheduler=false" %s | FileCheck %s --check-prefix=OFF
// In a fused eltwise nest (all parallel, more than three operands) the tree feeding the store is laid out heaviest
// subtree first: in a * (c - d / e) the right subtree needs more DST slices, so it is evaluated before a, and the
// division before c; the nest is marked d2m.scheduled. A two-input generic is not a fused eltwise and is left alone.

#l1 = #ttcore.memory_space<l1>
!t = !ttcore.tile<32x32, f32>
!block = memref<1x1x!ttcore.tile<32x32, f32>, #l1>
!cb = !d2m.cb<memref<1x1x!ttcore.tile<32x32, f32>, #l1>>
!shard = memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
#id = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>

// CHECK-LABEL: func.func @fused
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: %[[D:.*]] = affine.load %[[XD:.*]][%{{.*}}, %{{.*}}] : memref<1x1x!ttcore.tile<32x32, f32>, #l1>
// CHECK-NEXT: %[[E:.*]] = affine.load
// CHECK-NEXT: %[[Q:.*]] = "d2m.tile_div"(%[[D]], %[[E]])
// CHECK-NEXT: %[[C:.*]] = affine.load
// CHECK-NEXT: %[[S:.*]] = "d2m.tile_sub"(%[[C]], %[[Q]])
// CHECK-NEXT: %[[A:.*]] = affine.load
// CHECK-NEXT: %[[M:.*]] = "d2m.tile_mul"(%[[A]], %[[S]])
// CHECK-NEXT: affine.store %[[M]]
// CHECK: } {d2m.linalg_root, d2m.scheduled}
// OFF-LABEL: func.func @fused
// OFF: %[[A:.*]] = affine.load
// OFF-NEXT: %[[C:.*]] = affine.load
// OFF: } {d2m.linalg_root}
func.func @fused(%a: !shard, %c: !shard, %d: !shard, %e: !shard, %out: !shard) {
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id, #id, #id, #id], iterator_types = [#par, #par], threads = [#d2m.thread<compute>]}
      ins(%a, %c, %d, %e : !shard, !shard, !shard, !shard) outs(%out : !shard) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %cb2 = d2m.get_cb(2) : !cb
    %cb3 = d2m.get_cb(3) : !cb
    %cb4 = d2m.get_cb(4) : !cb
    %x0 = d2m.wait %cb0 : !cb -> !block
    %x2 = d2m.wait %cb1 : !cb -> !block
    %x3 = d2m.wait %cb2 : !cb -> !block
    %x4 = d2m.wait %cb3 : !cb -> !block
    %y = d2m.reserve %cb4 : !cb -> !block
    affine.for %i = 0 to 1 {
      affine.for %j = 0 to 1 {
        %2 = affine.load %x0[%i, %j] : !block
        %3 = affine.load %x2[%i, %j] : !block
        %4 = affine.load %x3[%i, %j] : !block
        %5 = affine.load %x4[%i, %j] : !block
        %6 = "d2m.tile_div"(%4, %5) : (!t, !t) -> !t
        %7 = "d2m.tile_sub"(%3, %6) : (!t, !t) -> !t
        %8 = "d2m.tile_mul"(%2, %7) : (!t, !t) -> !t
        affine.store %8, %y[%i, %j] : !block
      }
    } {d2m.linalg_root}
  }
  return
}

// CHECK-LABEL: func.func @binary
// CHECK: } {d2m.linalg_root}
func.func @binary(%a: !shard, %b: !shard, %out: !shard) {
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id, #id], iterator_types = [#par, #par], threads = [#d2m.thread<compute>]}
      ins(%a, %b : !shard, !shard) outs(%out : !shard) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %cb2 = d2m.get_cb(2) : !cb
    %x0 = d2m.wait %cb0 : !cb -> !block
    %x1 = d2m.wait %cb1 : !cb -> !block
    %y = d2m.reserve %cb2 : !cb -> !block
    affine.for %i = 0 to 1 {
      affine.for %j = 0 to 1 {
        %0 = affine.load %x0[%i, %j] : !block
        %1 = affine.load %x1[%i, %j] : !block
        %2 = "d2m.tile_add"(%0, %1) : (!t, !t) -> !t
        affine.store %2, %y[%i, %j] : !block
      }
    } {d2m.linalg_root}
  }
  return
}
