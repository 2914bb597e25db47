// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// Reductions a tile reduction does not compute as they are (several dims, a dim other than the last or a single
// matrix's rows, no keep_dim): the input seen as a matrix (kept dims permuted first and folded into rows, reduced
// dims into columns), reduced along its rows with keep_dim, the column reshaped to the result. When the last dim is
// one of several reduced, it is reduced first.

// Two dims of more than one element each, the last among them: each row summed first (2x32x1), each matrix's
// column of sums then seen as one row (a gather) and summed (as one row of 2048 each, a 2x2048 matrix would pad to 64
// tiles).
// CHECK-LABEL: func.func @sum_two
// CHECK: d2m.tile_reduce_sum{{.*}}reduce_dim = #d2m<reduce_dim R>
// CHECK: into tensor<2x32x1xf32>
// CHECK: d2m.view_layout
// CHECK: into tensor<2x32xf32>
// CHECK: d2m.tile_reduce_sum{{.*}}reduce_dim = #d2m<reduce_dim R>
// CHECK: into tensor<2x1xf32>
// CHECK: into tensor<2x1x1xf32>
func.func @sum_two(%a: tensor<2x32x64xf32>) -> tensor<2x1x1xf32> {
  %0 = "ttir.sum"(%a) <{dim_arg = [1 : i32, 2 : i32], keep_dim = true}> : (tensor<2x32x64xf32>) -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// The leading dim, without keep_dim: permuted last, 2560 rows of 3.
// CHECK-LABEL: func.func @mean_leading
// CHECK: into tensor<40x64x3xbf16>
// CHECK: into tensor<2560x3xbf16>
// CHECK: d2m.tile_reduce_mean{{.*}}reduce_dim = #d2m<reduce_dim R>
// CHECK: into tensor<2560x1xbf16>
// CHECK: into tensor<40x64xbf16>
func.func @mean_leading(%a: tensor<3x40x64xbf16>) -> tensor<40x64xbf16> {
  %0 = "ttir.mean"(%a) <{dim_arg = [0 : i32], keep_dim = false}> : (tensor<3x40x64xbf16>) -> tensor<40x64xbf16>
  return %0 : tensor<40x64xbf16>
}

// A min down the columns of a batch of matrices: the last two dims swapped, -max(-x) along the rows.
// CHECK-LABEL: func.func @min_columns
// CHECK: into tensor<4x96x40xf32>
// CHECK: into tensor<384x40xf32>
// CHECK: d2m.tile_negative
// CHECK: d2m.tile_reduce_max{{.*}}reduce_dim = #d2m<reduce_dim R>
// CHECK: d2m.tile_negative
// CHECK: into tensor<4x1x96xf32>
func.func @min_columns(%a: tensor<4x40x96xf32>) -> tensor<4x1x96xf32> {
  %0 = "ttir.min"(%a) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<4x40x96xf32>) -> tensor<4x1x96xf32>
  return %0 : tensor<4x1x96xf32>
}

// Reductions the tile reductions take as they are stay one program: the last dim, a matrix's rows.
// CHECK-LABEL: func.func @max_last
// CHECK-NOT: d2m.view_layout
// CHECK: d2m.tile_reduce_max{{.*}}reduce_dim = #d2m<reduce_dim R>
// CHECK-NOT: d2m.view_layout
// CHECK: return
func.func @max_last(%a: tensor<4x40x96xf32>) -> tensor<4x40x1xf32> {
  %0 = "ttir.max"(%a) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<4x40x96xf32>) -> tensor<4x40x1xf32>
  return %0 : tensor<4x40x1xf32>
}
