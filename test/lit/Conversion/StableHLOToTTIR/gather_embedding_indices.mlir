// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s

// A row lookup becomes an embedding; indices of rank above two (a trailing index vector of one entry
// included) are flattened to one dim, the rows put back into the result's shape after.
// CHECK-LABEL: func.func @rows_by_rank3_indices
// CHECK: %[[FLAT:.*]] = "ttir.reshape"(%arg1) <{shape = [2 : i32]}> : (tensor<1x2x1xi32>) -> tensor<2xi32>
// CHECK: %[[ROWS:.*]] = "ttir.embedding"(%[[FLAT]], %arg0) : (tensor<2xi32>, tensor<448x384xbf16>) -> tensor<2x384xbf16>
// CHECK: "ttir.reshape"(%[[ROWS]]) <{shape = [1 : i32, 2 : i32, 384 : i32]}>
func.func @rows_by_rank3_indices(%operand: tensor<448x384xbf16>, %indices: tensor<1x2x1xi32>) -> tensor<1x2x384xbf16> {
  %0 = "stablehlo.gather"(%operand, %indices) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 384>}> : (tensor<448x384xbf16>, tensor<1x2x1xi32>) -> tensor<1x2x384xbf16>
  return %0 : tensor<1x2x384xbf16>
}

// A rank-2 index tensor is taken as it is.
// CHECK-LABEL: func.func @rows_by_rank2_indices
// CHECK: "ttir.embedding"(%arg1, %arg0) : (tensor<3x1xi32>, tensor<6x4xbf16>) -> tensor<3x1x4xbf16>
func.func @rows_by_rank2_indices(%operand: tensor<6x4xbf16>, %indices: tensor<3x1xi32>) -> tensor<3x4xbf16> {
  %0 = "stablehlo.gather"(%operand, %indices) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<6x4xbf16>, tensor<3x1xi32>) -> tensor<3x4xbf16>
  return %0 : tensor<3x4xbf16>
}
