// RUN: ttmlir-opt --d2m-generate-outer-loops --d2m-generic-lower-to-explicit-form %s | FileCheck %s
// Blocking loops become scf.for over constant bounds (marks kept); block factors are constants; a block offset is
// the factor times the core index of the grid dim the output puts that loop dim at, or 0 for the reduction dim,
// which is on no grid dim; the generic keeps no blocking attributes.

!tile = !ttcore.tile<32x32, f32>
!lhs = memref<1x2x2x2x!tile, #ttcore.shard<8192x4096, 1>, #ttcore.memory_space<l1>>
!rhs = memref<2x1x2x2x!tile, #ttcore.shard<8192x4096, 1>, #ttcore.memory_space<l1>>
!out = memref<1x1x2x2x!tile, #ttcore.shard<8192x4096, 1>, #ttcore.memory_space<l1>>
!blk = memref<2x2x!tile, #ttcore.memory_space<l1>>
#l = affine_map<(d0, d1, d2) -> (d0, d2)>
#r = affine_map<(d0, d1, d2) -> (d2, d1)>
#o = affine_map<(d0, d1, d2) -> (d0, d1)>

// CHECK-LABEL: func.func @matmul
// CHECK: d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = []
// CHECK: %[[K:.*]] = arith.constant 2 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %[[K]] step %{{.*}} {
// CHECK: %[[F0:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[C0:.*]] = d2m.core_index(0) : index
// CHECK-NEXT: %[[O0:.*]] = arith.muli %[[F0]], %[[C0]] : index
// CHECK-NEXT: arith.addi %[[I]], %[[O0]] : index
// CHECK: %[[F1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[C1:.*]] = d2m.core_index(1) : index
// CHECK-NEXT: arith.muli %[[F1]], %[[C1]] : index
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: arith.addi %[[R]], %[[Z]] : index
// CHECK: } {d2m.blocking_loop = 2 : i64, d2m.reduction_loop}
// CHECK-NEXT: } {d2m.blocking_loop = 1 : i64}
// CHECK-NEXT: } {d2m.blocking_loop = 0 : i64}
// CHECK-NOT: affine.
func.func @matmul(%a: !lhs, %b: !rhs, %c: !out) {
  d2m.generic {block_factors = [1, 1, 2], grid = #ttcore.grid<1x1>, indexing_maps = [#l, #r, #o], iterator_types = [#ttcore.iterator_type<parallel>, #ttcore.iterator_type<parallel>, #ttcore.iterator_type<reduction>], threads = [#d2m.thread<unified>]}
      ins(%a, %b : !lhs, !rhs) outs(%c : !out) {
  ^unified0:
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %k = d2m.block_index(2) : index
    %x = memref.alloc() : !blk
    d2m.remote_load %x %a[%i, %k] : !blk, !lhs
    %y = memref.alloc() : !blk
    d2m.remote_load %y %b[%k, %j] : !blk, !rhs
  }
  return
}
