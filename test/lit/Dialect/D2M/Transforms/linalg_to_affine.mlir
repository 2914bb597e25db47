// RUN: ttmlir-opt --d2m-linalg-to-affine %s | FileCheck %s
// RUN: ttmlir-opt --d2m-linalg-to-affine="mark-root-loops=false" %s | FileCheck %s --check-prefix=NOMARK
// A linalg.generic in a compute region becomes one affine.for per loop dim (trip counts from the operands'
// shapes), loading each operand through its indexing map (a broadcast map reads index 0), computing the body and
// storing the yield; a scalar operand is used directly. Data-movement regions are left alone.

#l1 = #ttcore.memory_space<l1>
#t = !ttcore.tile<32x32, f32>

// CHECK-LABEL: func.func @bcast
func.func @bcast(%a: memref<1x1x1x4x!ttcore.tile<32x32, f32>, #ttcore.shard<16384x4096, 1>, #l1>,
                 %c: memref<1x1x3x4x!ttcore.tile<32x32, f32>, #ttcore.shard<16384x4096, 1>, #l1>) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]}
      ins(%a : memref<1x1x1x4x!ttcore.tile<32x32, f32>, #ttcore.shard<16384x4096, 1>, #l1>)
      outs(%c : memref<1x1x3x4x!ttcore.tile<32x32, f32>, #ttcore.shard<16384x4096, 1>, #l1>) {
  ^datamovement0:
    %xcb0 = d2m.get_cb(0) : !d2m.cb<memref<1x4x!ttcore.tile<32x32, f32>, #l1>>
    %ycb0 = d2m.get_cb(1) : !d2m.cb<memref<3x4x!ttcore.tile<32x32, f32>, #l1>>
    %x0 = d2m.wait %xcb0 : !d2m.cb<memref<1x4x!ttcore.tile<32x32, f32>, #l1>> -> memref<1x4x!ttcore.tile<32x32, f32>, #l1>
    %y0 = d2m.reserve %ycb0 : !d2m.cb<memref<3x4x!ttcore.tile<32x32, f32>, #l1>> -> memref<3x4x!ttcore.tile<32x32, f32>, #l1>
    // CHECK: d2m.generic
    // CHECK: linalg.generic
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        outs(%y0 : memref<3x4x!ttcore.tile<32x32, f32>, #l1>) {
    ^bb0(%o: !ttcore.tile<32x32, f32>):
      linalg.yield %o : !ttcore.tile<32x32, f32>
    }
  }, {
  ^compute0:
    %xcb = d2m.get_cb(0) : !d2m.cb<memref<1x4x!ttcore.tile<32x32, f32>, #l1>>
    %ycb = d2m.get_cb(1) : !d2m.cb<memref<3x4x!ttcore.tile<32x32, f32>, #l1>>
    %x = d2m.wait %xcb : !d2m.cb<memref<1x4x!ttcore.tile<32x32, f32>, #l1>> -> memref<1x4x!ttcore.tile<32x32, f32>, #l1>
    %y = d2m.reserve %ycb : !d2m.cb<memref<3x4x!ttcore.tile<32x32, f32>, #l1>> -> memref<3x4x!ttcore.tile<32x32, f32>, #l1>
    %s = arith.constant 2.0 : f32
    // CHECK: }, {
    // CHECK: affine.for %[[I:.*]] = 0 to 3 {
    // CHECK-NEXT: affine.for %[[J:.*]] = 0 to 4 {
    // CHECK-NEXT: %[[X:.*]] = affine.load %{{.*}}[0, %[[J]]] : memref<1x4x!ttcore.tile<32x32, f32>, #l1>
    // CHECK-NEXT: %[[O:.*]] = affine.load %[[Y:.*]][%[[I]], %[[J]]] : memref<3x4x!ttcore.tile<32x32, f32>, #l1>
    // CHECK-NEXT: %[[E:.*]] = "d2m.tile_exp"(%[[X]])
    // CHECK-NEXT: %[[M:.*]] = "d2m.tile_mul"(%[[E]], %{{.*}}) : (!ttcore.tile<32x32, f32>, f32)
    // CHECK-NEXT: affine.store %[[M]], %[[Y]][%[[I]], %[[J]]]
    // CHECK-NEXT: }
    // CHECK-NEXT: } {d2m.linalg_root}
    // NOMARK-NOT: d2m.linalg_root
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%x, %s : memref<1x4x!ttcore.tile<32x32, f32>, #l1>, f32)
        outs(%y : memref<3x4x!ttcore.tile<32x32, f32>, #l1>) {
    ^bb0(%in: !ttcore.tile<32x32, f32>, %sc: f32, %o: !ttcore.tile<32x32, f32>):
      %e = "d2m.tile_exp"(%in) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
      %m = "d2m.tile_mul"(%e, %sc) : (!ttcore.tile<32x32, f32>, f32) -> !ttcore.tile<32x32, f32>
      linalg.yield %m : !ttcore.tile<32x32, f32>
    }
  }
  return
}
