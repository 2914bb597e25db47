// RUN: ttmlir-opt --ttcore-register-device --d2m-decompose-masking %s | FileCheck %s
// d2m-decompose-masking writes a d2m.mask on buffers as a generic on its output's grid: each core loads its
// shard, passes tiles inside the logical shape through, masks the last partial row and column of tiles against
// mask tiles with a tile of the fill value (the corner against both), fills the tiles past it, and stores. A
// logical shape of 40x70 over 2x3 tiles has a partial row (8 valid) and a partial column (6 valid).

// CHECK-LABEL: func.func @both_partial
// CHECK: d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
// CHECK-NEXT: ins(%arg0 : memref<1x1x2x3x!ttcore.tile<32x32, bf16>
// CHECK-NEXT: outs(%arg1 : memref<1x1x2x3x!ttcore.tile<32x32, bf16>
// CHECK: %[[IN:.*]] = memref.alloc() : memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
// CHECK: %[[ROWM:.*]] = memref.alloc() : memref<1x1x!ttcore.tile<32x32, bf16>, #l1>
// CHECK: %[[COLM:.*]] = memref.alloc() : memref<1x1x!ttcore.tile<32x32, bf16>, #l1>
// CHECK: d2m.remote_load %[[IN]] %arg0[%{{.*}}, %{{.*}}]
// CHECK: %[[FILL:.*]] = arith.constant 1.000000e+00 : bf16
// CHECK: %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK: %[[SIX:.*]] = arith.constant 6 : index
// CHECK: d2m.write_row_mask_tile(%[[EIGHT]]) to %[[ROWM]]
// CHECK: d2m.write_col_mask_tile(%[[SIX]]) to %[[COLM]]
// interior: passthrough
// CHECK: scf.for
// CHECK: memref.load %[[IN]]
// CHECK-NEXT: memref.store %{{.*}}, %[[OUT]]
// last row of tiles
// CHECK: "d2m.tile_where"
// last column of tiles
// CHECK: "d2m.tile_where"
// corner: both masks
// CHECK: %[[R:.*]] = "d2m.tile_where"(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK: "d2m.tile_where"(%{{.*}}, %[[R]], %{{.*}})
// CHECK: d2m.remote_store %arg1[%{{.*}}, %{{.*}}] %[[OUT]]
// CHECK-NOT: d2m.mask
func.func @both_partial(%arg0: memref<1x1x2x3x!ttcore.tile<32x32, bf16>, #ttcore.shard<6144x2048, 1>, #ttcore.memory_space<l1>>,
                        %arg1: memref<1x1x2x3x!ttcore.tile<32x32, bf16>, #ttcore.shard<6144x2048, 1>, #ttcore.memory_space<l1>>) {
  %0 = d2m.mask %arg0, %arg1 logical_shape = [40, 70] fill_value = <one> : memref<1x1x2x3x!ttcore.tile<32x32, bf16>, #ttcore.shard<6144x2048, 1>, #ttcore.memory_space<l1>> into memref<1x1x2x3x!ttcore.tile<32x32, bf16>, #ttcore.shard<6144x2048, 1>, #ttcore.memory_space<l1>> -> memref<1x1x2x3x!ttcore.tile<32x32, bf16>, #ttcore.shard<6144x2048, 1>, #ttcore.memory_space<l1>>
  return
}
