// RUN: ttmlir-opt --d2m-generate-outer-loops %s | FileCheck %s
// RUN: ttmlir-opt --d2m-generate-outer-loops %s | ttmlir-opt --d2m-generate-outer-loops | FileCheck %s
// A blocked generic's region runs in one affine loop per dim up to its block factor (reduction dims marked), block
// indices become loop index + block offset; a second run finds the loops and adds none; explicit-datamovement
// generics are left alone.

!tile = !ttcore.tile<32x32, bf16>
!dev = memref<2x2x1x2x!tile, #ttcore.shard<4096x2048, 1>, #ttcore.memory_space<l1>>
!blk = memref<1x2x!tile, #ttcore.memory_space<l1>>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @f
// CHECK: d2m.generic
// CHECK: %[[B0:.*]] = d2m.get_block_factor(0) : index
// CHECK-NEXT: %[[B1:.*]] = d2m.get_block_factor(1) : index
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to %[[B0]] {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to %[[B1]] {
// CHECK-NEXT: %[[O0:.*]] = d2m.block_offset(0) : index
// CHECK-NEXT: %[[X:.*]] = arith.addi %[[I]], %[[O0]] : index
// CHECK-NEXT: %[[O1:.*]] = d2m.block_offset(1) : index
// CHECK-NEXT: %[[Y:.*]] = arith.addi %[[J]], %[[O1]] : index
// CHECK: d2m.remote_load %{{.*}} %{{.*}}[%[[X]], %[[Y]]]
// CHECK: } {d2m.blocking_loop = 1 : i64, d2m.reduction_loop}
// CHECK-NEXT: } {d2m.blocking_loop = 0 : i64}
// CHECK-NOT: affine.for
func.func @f(%a: !dev, %out: !dev) {
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<2x2>, indexing_maps = [#id, #id], iterator_types = [#ttcore.iterator_type<parallel>, #ttcore.iterator_type<reduction>], threads = [#d2m.thread<unified>]}
      ins(%a : !dev) outs(%out : !dev) {
  ^unified0:
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %buf = memref.alloc() : !blk
    d2m.remote_load %buf %a[%i, %j] : !blk, !dev
    d2m.remote_store %out[%i, %j] %buf : !dev, !blk
  }
  return
}

// CHECK-LABEL: func.func @explicit
func.func @explicit(%a: !dev, %out: !dev) {
  // CHECK-NOT: affine.for
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !dev) outs(%out : !dev) {
  ^unified0:
    %c0 = arith.constant 0 : index
  }
  return
}
