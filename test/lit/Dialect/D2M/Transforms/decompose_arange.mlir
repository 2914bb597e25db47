// RUN: ttmlir-opt --ttcore-register-device --d2m-decompose-arange %s | FileCheck %s
// d2m-decompose-arange writes a d2m.arange_block out tile by tile: the scratch tile filled with its own indices,
// two loops over the block's tiles (columns outer when column-major), each tile's first index in the whole tensor
// from the core's coordinates and its place (column-major: a column of tiles is total-rows * 32 * 32 apart, the
// scratch transposed), then (scratch + offset) * step + start stored into the block.

// CHECK-LABEL: func.func @col_major_ints
// CHECK: d2m.fill_arange_tile to %arg0 : memref<1x1x!ttcore.tile<32x32, si32>>
// CHECK-DAG: %[[START:.*]] = arith.constant 5 : i32
// CHECK-DAG: %[[STEP:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[Y:.*]] = d2m.core_index(0) : index
// CHECK-DAG: %[[X:.*]] = d2m.core_index(1) : index
// CHECK: scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[SCRATCH:.*]] = memref.load %arg0
// CHECK: %[[OFF:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[T:.*]] = "d2m.tile_transpose"(%[[SCRATCH]])
// CHECK: %[[I:.*]] = "d2m.tile_add"(%[[T]], %[[OFF]]) : (!ttcore.tile<32x32, si32>, i32)
// CHECK: %[[S:.*]] = "d2m.tile_mul"(%[[I]], %[[STEP]])
// CHECK: %[[V:.*]] = "d2m.tile_add"(%[[S]], %[[START]])
// CHECK: memref.store %[[V]], %arg1[%[[ROW]], %[[COL]]]
// CHECK: } {d2m.linalg_root, d2m.scheduled}
func.func @col_major_ints(%scratch: memref<1x1x!ttcore.tile<32x32, si32>>, %out: memref<2x3x!ttcore.tile<32x32, si32>>) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%scratch : memref<1x1x!ttcore.tile<32x32, si32>>)
      outs(%out : memref<2x3x!ttcore.tile<32x32, si32>>) {
    %0 = "d2m.arange_block"(%scratch, %out) <{colMajor = true, num_elements = 12288 : i64, start = 5 : i64, step = 3 : i64}>
        : (memref<1x1x!ttcore.tile<32x32, si32>>, memref<2x3x!ttcore.tile<32x32, si32>>) -> memref<2x3x!ttcore.tile<32x32, si32>>
  }
  return
}
