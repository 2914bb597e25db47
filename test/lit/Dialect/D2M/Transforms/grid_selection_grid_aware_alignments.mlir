// RUN: ttmlir-opt --ttcore-register-device="mock-system-desc-arch=blackhole" --ttir-to-d2m --d2m-grid-selection %s | FileCheck %s
// A 2-d tiled tensor larger than a tile per core of the device grid's matching dim (Blackhole: 10 rows, 13 columns
// of cores) is padded at its end to whole tiles per core of its grid: its layout's dim alignments say how far. A dim
// a tensor is whole along on one core (a reduced one) keeps tile alignment.

// CHECK-DAG: #[[ROWS:layout[0-9]*]] = #ttcore.metal_layout<logical_shape = 512x128, dim_alignments = 320x32,
// CHECK-DAG: #[[WHOLE:layout[0-9]*]] = #ttcore.metal_layout<logical_shape = 512x128, dim_alignments = 32x32,
// CHECK-DAG: #[[BATCH:layout[0-9]*]] = #ttcore.metal_layout<logical_shape = 9x43x7, dim_alignments = 320x32x32, collapsed_intervals = dense<{{\[\[}}0, 2], [2, 3]]>

// CHECK-LABEL: func.func @rows_past_the_grid
// 16 row tiles padded to 20, two per row of cores; 4 column tiles fit the 13 columns as they are
// CHECK: d2m.empty() : tensor<10x4x2x1x!ttcore.tile<32x32, f32>, #[[ROWS]]>
// CHECK: d2m.generic {{.*}}grid = #ttcore.grid<10x4>
func.func @rows_past_the_grid(%a: tensor<512x128xf32>) -> tensor<512x128xf32> {
  %0 = "ttir.exp"(%a) : (tensor<512x128xf32>) -> tensor<512x128xf32>
  return %0 : tensor<512x128xf32>
}

// CHECK-LABEL: func.func @reduced_along_padded_rows
// the input is whole along the reduced rows on each core: not padded
// CHECK: d2m.empty() : tensor<1x4x16x1x!ttcore.tile<32x32, f32>, #[[WHOLE]]>
// CHECK: d2m.generic {{.*}}grid = #ttcore.grid<1x4>
func.func @reduced_along_padded_rows(%a: tensor<512x128xf32>) -> tensor<1x128xf32> {
  %0 = "ttir.sum"(%a) <{dim_arg = [0 : i32], keep_dim = true}> : (tensor<512x128xf32>) -> tensor<1x128xf32>
  return %0 : tensor<1x128xf32>
}

// CHECK-LABEL: func.func @batch_padded_at_its_end
// 9 matrices of 2 tiles (each padded to whole tiles) collapse to 18 row tiles: padded after the last to 20
// CHECK: d2m.empty() : tensor<10x1x2x1x!ttcore.tile<32x32, f32>, #[[BATCH]]>
// CHECK: d2m.generic {{.*}}grid = #ttcore.grid<10x1>
func.func @batch_padded_at_its_end(%a: tensor<9x43x7xf32>) -> tensor<9x43x7xf32> {
  %0 = "ttir.neg"(%a) : (tensor<9x43x7xf32>) -> tensor<9x43x7xf32>
  return %0 : tensor<9x43x7xf32>
}
