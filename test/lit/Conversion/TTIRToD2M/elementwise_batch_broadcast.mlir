// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// Elementwise operands broadcast with a batch: along the last dim whatever the batch (rows stay in their tiles: a
// column read, spread within the tile); one matrix repeated along the batch, or its matrices along leading batch
// dims, as a view of whole tiles copied first (then read block for block); one row for every row of every matrix
// broadcast first by a program of its own (a row read, spread within the tile). A row reduction of matrices of one
// row is not masked (its row padding only reaches padding of the result).

// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>

// CHECK-LABEL: func.func @columns
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[COL]], #{{.*}}]
// CHECK: d2m.tile_bcast{{.*}}col
// CHECK: d2m.tile_sub
func.func @columns(%a: tensor<4x40x96xbf16>, %b: tensor<4x40x1xbf16>) -> tensor<4x40x96xbf16> {
  %0 = "ttir.subtract"(%a, %b) : (tensor<4x40x96xbf16>, tensor<4x40x1xbf16>) -> tensor<4x40x96xbf16>
  return %0 : tensor<4x40x96xbf16>
}

// CHECK-LABEL: func.func @repeated_matrix
// CHECK: d2m.view_layout {{.*}} : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, {{.*}}> -> tensor<1x1x6x2x!ttcore.tile<32x32, f32>
// CHECK-NOT: d2m.tile_bcast
// CHECK: d2m.tile_add
func.func @repeated_matrix(%a: tensor<1x40x64xf32>, %b: tensor<3x40x64xf32>) -> tensor<3x40x64xf32> {
  %0 = "ttir.add"(%a, %b) : (tensor<1x40x64xf32>, tensor<3x40x64xf32>) -> tensor<3x40x64xf32>
  return %0 : tensor<3x40x64xf32>
}

// CHECK-LABEL: func.func @repeated_along_leading_dims
// CHECK: d2m.view_layout {{.*}} : tensor<1x1x6x2x!ttcore.tile<32x32, f32>, {{.*}}> -> tensor<1x1x12x2x!ttcore.tile<32x32, f32>
// CHECK-NOT: d2m.tile_bcast
// CHECK: d2m.tile_mul
func.func @repeated_along_leading_dims(%a: tensor<2x3x40x64xf32>, %b: tensor<1x3x40x64xf32>) -> tensor<2x3x40x64xf32> {
  %0 = "ttir.multiply"(%a, %b) : (tensor<2x3x40x64xf32>, tensor<1x3x40x64xf32>) -> tensor<2x3x40x64xf32>
  return %0 : tensor<2x3x40x64xf32>
}

// CHECK-LABEL: func.func @one_row_for_all
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #{{.*}}]
// CHECK: d2m.tile_bcast{{.*}}row
// CHECK: d2m.tile_mul
func.func @one_row_for_all(%a: tensor<4x40x96xbf16>, %b: tensor<1x1x96xbf16>) -> tensor<4x40x96xbf16> {
  %0 = "ttir.multiply"(%a, %b) : (tensor<4x40x96xbf16>, tensor<1x1x96xbf16>) -> tensor<4x40x96xbf16>
  return %0 : tensor<4x40x96xbf16>
}

// CHECK-LABEL: func.func @sum_of_single_rows
// CHECK-NOT: d2m.mask
// CHECK: d2m.tile_reduce_sum
func.func @sum_of_single_rows(%a: tensor<8x1x64xf32>) -> tensor<8x1x1xf32> {
  %0 = "ttir.sum"(%a) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<8x1x64xf32>) -> tensor<8x1x1xf32>
  return %0 : tensor<8x1x1xf32>
}

// CHECK-LABEL: func.func @sum_of_short_rows
// CHECK: d2m.mask
// CHECK: d2m.tile_reduce_sum
func.func @sum_of_short_rows(%a: tensor<8x1x40xf32>) -> tensor<8x1x1xf32> {
  %0 = "ttir.sum"(%a) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<8x1x40xf32>) -> tensor<8x1x1xf32>
  return %0 : tensor<8x1x1xf32>
}
