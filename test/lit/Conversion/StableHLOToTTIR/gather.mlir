// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s

// Rows picked by a 2x3x1 index tensor: embedding takes 1-d or 2-d indices, so they are one flat list of 6 and
// the 6 rows are put back in the index shape.
// CHECK-LABEL: func.func @rows_by_3d_indices
// CHECK: %[[FLAT:.*]] = "ttir.reshape"(%arg1) <{shape = [6 : i32]}> : (tensor<2x3x1xi32>) -> tensor<6xi32>
// CHECK: %[[ROWS:.*]] = "ttir.embedding"(%[[FLAT]], %arg0) : (tensor<6xi32>, tensor<10x8xf32>) -> tensor<6x8xf32>
// CHECK: "ttir.reshape"(%[[ROWS]]) <{shape = [2 : i32, 3 : i32, 8 : i32]}>
func.func @rows_by_3d_indices(%table: tensor<10x8xf32>, %idx: tensor<2x3x1xi32>) -> tensor<2x3x8xf32> {
  %0 = "stablehlo.gather"(%table, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<10x8xf32>, tensor<2x3x1xi32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// 2-d indices (the index vector dim implicit) are the embedding's own.
// CHECK-LABEL: func.func @rows_by_2d_indices
// CHECK: "ttir.embedding"(%arg1, %arg0) : (tensor<2x3xi32>, tensor<10x8xf32>) -> tensor<2x3x8xf32>
func.func @rows_by_2d_indices(%table: tensor<10x8xf32>, %idx: tensor<2x3xi32>) -> tensor<2x3x8xf32> {
  %0 = "stablehlo.gather"(%table, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<10x8xf32>, tensor<2x3xi32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}
