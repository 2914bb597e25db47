// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: not ttmlir-opt --split-input-file %S/tile_reduce_negative.mlir 2>&1 | FileCheck %S/tile_reduce_negative.mlir
// Tile reductions in generic form: the reduce dim is an inherent attribute written in either dictionary; an SFPU
// reduction gets its dst scratch slot (-1 until dst register access is inserted). Generic-form generics keep their
// grid, maps and threads, and name their extra operands (semaphores, CBs) in additionalArgs.

#map = affine_map<(d0, d1) -> (d0, d1)>
#parallel = #ttcore.iterator_type<parallel>

// CHECK: #parallel = #ttcore.iterator_type<parallel>
// CHECK-LABEL: func.func @reduce
// CHECK: d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#map, #map], iterator_types = [#parallel, #parallel], threads = [#d2m.thread<compute>]}
// CHECK-NEXT: ins(%arg0 : tensor<32x32xf32>)
// CHECK-NEXT: outs(%{{.*}} : tensor<32x32xf32>)
// CHECK-NEXT: additionalArgs(%arg1 : tensor<32x32xsi32>)
func.func @reduce(%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xsi32>) -> tensor<32x32xf32> {
  %0 = d2m.empty() : tensor<32x32xf32>
  %1 = "d2m.generic"(%arg0, %0, %arg1) <{block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#map, #map], iterator_types = [#parallel, #parallel], threads = [#d2m.thread<compute>], operandSegmentSizes = array<i32: 1, 1, 1>}> ({
  ^bb0:
    d2m.yield %0 : (tensor<32x32xf32>)
  }) : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xsi32>) -> tensor<32x32xf32>
  return %1 : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @tiles
// CHECK: "d2m.tile_reduce_sum"(%{{.*}}, %{{.*}}, %{{.*}}) <{reduce_dim = #d2m<reduce_dim RC>}>
// CHECK: "d2m.tile_sfpu_reduce_max"(%{{.*}}, %{{.*}}) <{dst_scratch_index = -1 : i64, reduce_dim = #d2m<reduce_dim C>}>
func.func @tiles(%f: !ttcore.tile<32x32, f32>, %i: !ttcore.tile<32x32, si32>) {
  %2 = "d2m.tile_reduce_sum"(%f, %f, %f) {reduce_dim = #d2m<reduce_dim RC>} : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
  %3 = "d2m.tile_sfpu_reduce_max"(%i, %i) <{reduce_dim = #d2m<reduce_dim C>}> : (!ttcore.tile<32x32, si32>, !ttcore.tile<32x32, si32>) -> !ttcore.tile<32x32, si32>
  return
}
