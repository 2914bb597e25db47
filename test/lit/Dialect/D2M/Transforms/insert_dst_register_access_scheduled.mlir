// RUN: ttmlir-opt --ttcore-register-device --d2m-insert-dst-register-access-scheduled --canonicalize %s | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device --d2m-insert-dst-register-access-scheduled --split-input-file %S/insert_dst_register_access_scheduled_negative.mlir 2>&1 | FileCheck %S/insert_dst_register_access_scheduled_negative.mlir
// A d2m.scheduled nest keeps its order: each CB load is copied into DST where it is, the ops read DST, and the
// stores go out through a copy of the nest after it; the mark is consumed. Slices come from a stack: the sub's
// second input slice is freed for the div's CB input, whose slice the div's result then takes. Unscheduled roots are
// left to the unscheduled pass. A region with compute but no root loop is handled as one flat nest, its DST acquired just
// before first use.

#l1 = #ttcore.memory_space<l1>
!t = !ttcore.tile<32x32, f32>
!block = memref<1x4x!ttcore.tile<32x32, f32>, #l1>
!cb = !d2m.cb<memref<1x4x!ttcore.tile<32x32, f32>, #l1>>
!shard = memref<1x1x1x4x!ttcore.tile<32x32, f32>, #ttcore.shard<16384x4096, 1>, #l1>

// CHECK-LABEL: func.func @scheduled
func.func @scheduled(%a: !shard, %b: !shard, %c: !shard, %out: !shard) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%a, %b, %c : !shard, !shard, !shard) outs(%out : !shard) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %cb2 = d2m.get_cb(2) : !cb
    %cb3 = d2m.get_cb(3) : !cb
    %x = d2m.wait %cb0 : !cb -> !block
    %y = d2m.wait %cb1 : !cb -> !block
    %w = d2m.wait %cb2 : !cb -> !block
    %z = d2m.reserve %cb3 : !cb -> !block
    // CHECK: %dst = d2m.acquire_dst() : memref<4x!ttcore.tile<32x32, f32>, #dst>
    // CHECK-NEXT: affine.for %[[I:.*]] = 0 to 1 {
    // CHECK-NEXT: affine.for %[[J:.*]] = 0 to 4 {
    // CHECK-NEXT: %[[X:.*]] = affine.load %{{.*}}[%[[I]], %[[J]]]
    // CHECK-NEXT: affine.store %[[X]], %dst[%[[I]] * 4 + %[[J]]]
    // CHECK-NEXT: %[[DX:.*]] = affine.load %dst[%[[I]] * 4 + %[[J]]]
    // CHECK-NEXT: %[[Y:.*]] = affine.load %{{.*}}[%[[I]], %[[J]]]
    // CHECK-NEXT: affine.store %[[Y]], %dst[%[[I]] * 4 + %[[J]] + 4]
    // CHECK-NEXT: %[[DY:.*]] = affine.load %dst[%[[I]] * 4 + %[[J]] + 4]
    // CHECK-NEXT: %[[S:.*]] = "d2m.tile_sub"(%[[DX]], %[[DY]])
    // CHECK-NEXT: affine.store %[[S]], %dst[%[[I]] * 4 + %[[J]]]
    // CHECK-NEXT: %[[SL:.*]] = affine.load %dst[%[[I]] * 4 + %[[J]]]
    // CHECK-NEXT: %[[W:.*]] = affine.load %{{.*}}[%[[I]], %[[J]]]
    // CHECK-NEXT: affine.store %[[W]], %dst[%[[I]] * 4 + %[[J]] + 4]
    // CHECK-NEXT: %[[DW:.*]] = affine.load %dst[%[[I]] * 4 + %[[J]] + 4]
    // CHECK-NEXT: %[[D:.*]] = "d2m.tile_div"(%[[SL]], %[[DW]])
    // CHECK-NEXT: affine.store %[[D]], %dst[%[[I]] * 4 + %[[J]] + 4]
    // CHECK-NEXT: }
    // CHECK-NEXT: } {d2m.dst_access_inserted, d2m.linalg_root}
    // CHECK-NEXT: affine.for %[[I2:.*]] = 0 to 1 {
    // CHECK-NEXT: affine.for %[[J2:.*]] = 0 to 4 {
    // CHECK-NEXT: %[[R:.*]] = affine.load %dst[%[[I2]] * 4 + %[[J2]] + 4]
    // CHECK-NEXT: affine.store %[[R]], %{{.*}}[%[[I2]], %[[J2]]] : memref<1x4x!ttcore.tile<32x32, f32>, #l1>
    // CHECK-NOT: d2m.scheduled
    affine.for %i = 0 to 1 {
      affine.for %j = 0 to 4 {
        %0 = affine.load %x[%i, %j] : !block
        %1 = affine.load %y[%i, %j] : !block
        %2 = "d2m.tile_sub"(%0, %1) : (!t, !t) -> !t
        %3 = affine.load %w[%i, %j] : !block
        %4 = "d2m.tile_div"(%2, %3) : (!t, !t) -> !t
        affine.store %4, %z[%i, %j] : !block
      }
    } {d2m.linalg_root, d2m.scheduled}
  }
  return
}

// CHECK-LABEL: func.func @unscheduled_root_left
// CHECK-NOT: d2m.acquire_dst
// CHECK: } {d2m.linalg_root}
func.func @unscheduled_root_left(%a: !shard, %out: !shard) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%a : !shard) outs(%out : !shard) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %x = d2m.wait %cb0 : !cb -> !block
    %z = d2m.reserve %cb1 : !cb -> !block
    affine.for %i = 0 to 1 {
      affine.for %j = 0 to 4 {
        %0 = affine.load %x[%i, %j] : !block
        %1 = "d2m.tile_exp"(%0) : (!t) -> !t
        affine.store %1, %z[%i, %j] : !block
      }
    } {d2m.linalg_root}
  }
  return
}

// CHECK-LABEL: func.func @flat
// CHECK: %[[V:.*]] = affine.load %{{.*}}[0, 2] : memref<1x4x!ttcore.tile<32x32, f32>, #l1>
// CHECK-NEXT: %dst = d2m.acquire_dst() : memref<4x!ttcore.tile<32x32, f32>, #dst>
// CHECK-NEXT: affine.store %[[V]], %dst[0]
// CHECK-NEXT: %[[D:.*]] = affine.load %dst[0]
// CHECK-NEXT: %[[N:.*]] = "d2m.tile_negative"(%[[D]])
// CHECK-NEXT: affine.store %[[N]], %dst[0]
// CHECK-NEXT: %[[R:.*]] = affine.load %dst[0]
// CHECK-NEXT: affine.store %[[R]], %{{.*}}[0, 2]
func.func @flat(%a: !shard, %out: !shard) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%a : !shard) outs(%out : !shard) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %x = d2m.wait %cb0 : !cb -> !block
    %z = d2m.reserve %cb1 : !cb -> !block
    %0 = affine.load %x[0, 2] : !block
    %1 = "d2m.tile_negative"(%0) : (!t) -> !t
    affine.store %1, %z[0, 2] : !block
  }
  return
}
