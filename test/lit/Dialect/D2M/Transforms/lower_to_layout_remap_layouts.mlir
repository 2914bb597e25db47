// RUN: ttmlir-opt --ttcore-register-device --d2m-lower-to-layout %s | FileCheck %s
// A to_layout between two layouts of one logical shape that place elements differently (each dim on a grid dim of
// its own, against the batch collapsed into rows) reads the source through a view that finds each element where
// the source's layout puts it: the destination's physical rows unpacked into (batch, row), packed as the source's
// dims. Rows of elements are resharded so, then tilized on the destination's grid.

#src = #ttcore.metal_layout<logical_shape = 2x32x64, dim_alignments = 1x32x32, collapsed_intervals = dense<> : tensor<0x2xi64>, l1, sharded>
#dst = #ttcore.metal_layout<logical_shape = 2x32x64, dim_alignments = 1x32x32, collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, l1, sharded>

// The destination's row r = d0 * 32 + d2 is batch r floordiv 32, row r mod 32 of the source's (grid 1x1x1, shard
// 2x32x64) dims.
// CHECK: #[[REMAP:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (((d0 * 32 + d2) floordiv 32) floordiv 2, {{.*}}, ((d0 * 32 + d2) floordiv 32) mod 2, ((d0 * 32 + d2) mod 32) mod 32, (d1 * 64 + d3) mod 64)>
// CHECK-LABEL: func.func @batch_into_rows
// CHECK: %[[ROWS:.*]] = d2m.empty() : tensor<2x1x32x64xf32
// CHECK: %[[VIEW:.*]] = d2m.view_layout %arg0 remapping = #[[REMAP]] : tensor<1x1x1x2x32x64xf32, {{.*}}> -> tensor<2x1x32x64xf32
// CHECK: d2m.generic {{.*}}grid = #ttcore.grid<2x1>
// CHECK-NEXT: ins(%[[VIEW]] :
// CHECK-NEXT: outs(%[[ROWS]] :
// CHECK: d2m.tile_tilize_block
func.func @batch_into_rows(%arg0: tensor<1x1x1x2x32x64xf32, #src>) -> tensor<2x1x1x2x!ttcore.tile<32x32, f32>, #dst> {
  %0 = d2m.empty() : tensor<2x1x1x2x!ttcore.tile<32x32, f32>, #dst>
  %1 = d2m.to_layout %arg0, %0 : tensor<1x1x1x2x32x64xf32, #src> into tensor<2x1x1x2x!ttcore.tile<32x32, f32>, #dst> -> tensor<2x1x1x2x!ttcore.tile<32x32, f32>, #dst>
  return %1 : tensor<2x1x1x2x!ttcore.tile<32x32, f32>, #dst>
}

// A batch padded otherwise (rows aligned to 64 rather than 32): the same rows, found through the same unpacking.
#a = #ttcore.metal_layout<logical_shape = 3x40x64, dim_alignments = 1x32x32, collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, l1, sharded>
#b = #ttcore.metal_layout<logical_shape = 3x40x64, dim_alignments = 1x64x32, collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, l1, sharded>

// CHECK-LABEL: func.func @differently_aligned
// CHECK: %[[VIEW:.*]] = d2m.view_layout %arg0 remapping = #{{.*}} : tensor<1x1x192x64xf32, {{.*}}> -> tensor<1x1x192x64xf32
// CHECK: d2m.generic {{.*}}grid = #ttcore.grid<1x1>
// CHECK-NEXT: ins(%[[VIEW]] :
func.func @differently_aligned(%arg0: tensor<1x1x192x64xf32, #a>) -> tensor<1x1x192x64xf32, #b> {
  %0 = d2m.empty() : tensor<1x1x192x64xf32, #b>
  %1 = d2m.to_layout %arg0, %0 : tensor<1x1x192x64xf32, #a> into tensor<1x1x192x64xf32, #b> -> tensor<1x1x192x64xf32, #b>
  return %1 : tensor<1x1x192x64xf32, #b>
}
