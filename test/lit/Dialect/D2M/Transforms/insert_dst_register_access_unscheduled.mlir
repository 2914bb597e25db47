// RUN: ttmlir-opt --ttcore-register-device --d2m-linalg-to-affine --d2m-insert-dst-register-access-unscheduled --canonicalize %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --d2m-linalg-to-affine --d2m-insert-dst-register-access-unscheduled="max-dst-physical-size-tiles=8" %s | FileCheck %s --check-prefix=SMALL
// RUN: not ttmlir-opt --ttcore-register-device --d2m-insert-dst-register-access-unscheduled %s 2>&1 | FileCheck %s --check-prefix=NOAFFINE
// A bf16 block of 2x3 tiles: DST holds 16 / 2 = 8 slices (4 with an 8-tile DST). Both inputs of the SFPU binary
// are copied into DST in a copy of the loop nest (slice 0 at i * 3 + j, slice 1 six tiles on), the chain
// minimum -> exp -> recip computes in DST (the intermediates written back to the first input's slice), and the result
// is copied out of DST after the nest.

#l1 = #ttcore.memory_space<l1>
!t = !ttcore.tile<32x32, bf16>
!block = memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
!cb = !d2m.cb<memref<2x3x!ttcore.tile<32x32, bf16>, #l1>>
!shard = memref<1x1x2x3x!ttcore.tile<32x32, bf16>, #ttcore.shard<6144x2048, 1>, #l1>

// CHECK-LABEL: func.func @chain
func.func @chain(%a: !shard, %b: !shard, %out: !shard) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%a, %b : !shard, !shard) outs(%out : !shard) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %cb2 = d2m.get_cb(2) : !cb
    %x = d2m.wait %cb0 : !cb -> !block
    %y = d2m.wait %cb1 : !cb -> !block
    %z = d2m.reserve %cb2 : !cb -> !block
    // CHECK: %dst = d2m.acquire_dst() : memref<8x!ttcore.tile<32x32, bf16>, #dst>
    // SMALL: d2m.acquire_dst() : memref<4x!ttcore.tile<32x32, bf16>, #dst>
    // CHECK: affine.for %[[I:.*]] = 0 to 2 {
    // CHECK-NEXT: affine.for %[[J:.*]] = 0 to 3 {
    // CHECK-NEXT: %[[X:.*]] = affine.load %{{.*}}[%[[I]], %[[J]]] : memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
    // CHECK-NEXT: affine.store %[[X]], %dst[%[[I]] * 3 + %[[J]]]
    // CHECK-NEXT: %[[Y:.*]] = affine.load %{{.*}}[%[[I]], %[[J]]]
    // CHECK-NEXT: affine.store %[[Y]], %dst[%[[I]] * 3 + %[[J]] + 6]
    // CHECK: } {d2m.dst_access_inserted, d2m.linalg_root}
    // CHECK: affine.for %[[I2:.*]] = 0 to 2 {
    // CHECK-NEXT: affine.for %[[J2:.*]] = 0 to 3 {
    // CHECK-NEXT: %[[DX:.*]] = affine.load %dst[%[[I2]] * 3 + %[[J2]]]
    // CHECK-NEXT: %[[DY:.*]] = affine.load %dst[%[[I2]] * 3 + %[[J2]] + 6]
    // CHECK-NEXT: %[[MIN:.*]] = "d2m.tile_minimum"(%[[DX]], %[[DY]])
    // CHECK-NEXT: affine.store %[[MIN]], %dst[%[[I2]] * 3 + %[[J2]]]
    // CHECK-NEXT: %[[M:.*]] = affine.load %dst[%[[I2]] * 3 + %[[J2]]]
    // CHECK-NEXT: %[[E:.*]] = "d2m.tile_exp"(%[[M]])
    // CHECK-NEXT: affine.store %[[E]], %dst[%[[I2]] * 3 + %[[J2]]]
    // CHECK-NEXT: %[[EL:.*]] = affine.load %dst[%[[I2]] * 3 + %[[J2]]]
    // CHECK-NEXT: %[[R:.*]] = "d2m.tile_recip"(%[[EL]])
    // CHECK-NEXT: affine.store %[[R]], %dst[%[[I2]] * 3 + %[[J2]]]
    // CHECK: } {d2m.dst_access_inserted, d2m.linalg_root}
    // CHECK: affine.for %[[I3:.*]] = 0 to 2 {
    // CHECK-NEXT: affine.for %[[J3:.*]] = 0 to 3 {
    // CHECK-NEXT: %[[OUT:.*]] = affine.load %dst[%[[I3]] * 3 + %[[J3]]]
    // CHECK-NEXT: affine.store %[[OUT]], %{{.*}}[%[[I3]], %[[J3]]] : memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%x, %y : !block, !block) outs(%z : !block) {
    ^bb0(%p: !t, %q: !t, %o: !t):
      %0 = "d2m.tile_minimum"(%p, %q) : (!t, !t) -> !t
      %1 = "d2m.tile_exp"(%0) : (!t) -> !t
      %2 = "d2m.tile_recip"(%1) : (!t) -> !t
      linalg.yield %2 : !t
    }
  }
  return
}

// NOAFFINE: error: 'builtin.module' op found linalg.generic operations that were not converted to affine loops. Please run --d2m-linalg-to-affine before the d2m-insert-dst-register-access-unscheduled / d2m-insert-dst-register-access-scheduled passes.

// A bf16 tile_add reads its CB tiles directly (FPU): nothing is copied in, only the result goes through DST.
// CHECK-LABEL: func.func @fpu_add
// CHECK: %dst = d2m.acquire_dst() : memref<8x!ttcore.tile<32x32, bf16>, #dst>
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.for
// CHECK-NEXT: %[[A:.*]] = affine.load %{{.*}} : memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
// CHECK-NEXT: %[[B:.*]] = affine.load %{{.*}} : memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
// CHECK-NEXT: %[[S:.*]] = "d2m.tile_add"(%[[A]], %[[B]])
// CHECK-NEXT: affine.store %[[S]], %dst[%{{.*}} * 3 + %{{.*}}] : memref<8x!ttcore.tile<32x32, bf16>, #dst>
func.func @fpu_add(%a: !shard, %b: !shard, %out: !shard) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%a, %b : !shard, !shard) outs(%out : !shard) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %cb2 = d2m.get_cb(2) : !cb
    %x = d2m.wait %cb0 : !cb -> !block
    %y = d2m.wait %cb1 : !cb -> !block
    %z = d2m.reserve %cb2 : !cb -> !block
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%x, %y : !block, !block) outs(%z : !block) {
    ^bb0(%p: !t, %q: !t, %o: !t):
      %0 = "d2m.tile_add"(%p, %q) : (!t, !t) -> !t
      linalg.yield %0 : !t
    }
  }
  return
}

// A load feeding both operands is copied into DST once; both operands read its slice.
// CHECK-LABEL: func.func @square
// CHECK: affine.for
// CHECK-NEXT: affine.for
// CHECK-NEXT: %[[X:.*]] = affine.load
// CHECK-NEXT: affine.store %[[X]], %dst[%{{.*}} * 3 + %{{.*}}]
// CHECK-NEXT: }
// CHECK: %[[D:.*]] = affine.load %dst[%{{.*}} * 3 + %{{.*}}]
// CHECK-NEXT: "d2m.tile_maximum"(%[[D]], %[[D]])
func.func @square(%a: !shard, %out: !shard) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%a : !shard) outs(%out : !shard) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %x = d2m.wait %cb0 : !cb -> !block
    %z = d2m.reserve %cb1 : !cb -> !block
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%x : !block) outs(%z : !block) {
    ^bb0(%p: !t, %o: !t):
      %0 = "d2m.tile_maximum"(%p, %p) : (!t, !t) -> !t
      linalg.yield %0 : !t
    }
  }
  return
}
