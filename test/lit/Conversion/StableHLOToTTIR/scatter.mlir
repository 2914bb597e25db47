// REQUIRES: stablehlo
// RUN: ttmlir-opt --convert-stablehlo-to-ttir %s | FileCheck %s
// A scatter of rows becomes a torch-style ttir.scatter along dimension 0, its row indices repeated over the row
// (rows added are an embedding's gradient instead); one of points of a 2-D array scatters scalars into the flattened
// array, the index vector times the strides.

// CHECK-LABEL: func.func @rows
// CHECK: %[[IDX:.*]] = "ttir.repeat"(%arg1) <{repeat_dimensions = array<i64: 1, 4>}> : (tensor<3x1xi32>) -> tensor<3x4xi32>
// CHECK: "ttir.scatter"(%arg0, %[[IDX]], %arg2) <{dim = 0 : i32, scatter_reduce_type = #ttcore.reduce_type<max>}>
func.func @rows(%x: tensor<8x4xf32>, %rows: tensor<3x1xi32>, %u: tensor<3x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.scatter"(%x, %rows, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @row_sums
// CHECK: %[[ROWS:.*]] = "ttir.reshape"(%arg1) <{shape = [1 : i32, 3 : i32, 1 : i32]}>
// CHECK: %[[GRAD:.*]] = "ttir.embedding_backward"(%[[ROWS]], %arg0, %arg2) : (tensor<1x3x1xi32>, tensor<8x4xf32>, tensor<3x4xf32>) -> tensor<8x4xf32>
// CHECK: "ttir.add"(%arg0, %[[GRAD]])
func.func @row_sums(%x: tensor<8x4xf32>, %rows: tensor<3x1xi32>, %u: tensor<3x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.scatter"(%x, %rows, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @points
// CHECK: "ttir.slice_static"
// CHECK: "ttir.multiply"
// CHECK: "ttir.slice_static"
// CHECK: "ttir.add"
// CHECK: "ttir.reshape"(%arg0) <{shape = [42 : i32]}>
// CHECK: "ttir.scatter"({{.*}}) <{dim = 0 : i32, scatter_reduce_type = #ttcore.reduce_type<invalid>}> : (tensor<42xf32>, tensor<5xi32>, tensor<5xf32>) -> tensor<42xf32>
// CHECK: "ttir.reshape"({{.*}}) <{shape = [6 : i32, 7 : i32]}>
func.func @points(%x: tensor<6x7xf32>, %at: tensor<5x2xi32>, %v: tensor<5xf32>) -> tensor<6x7xf32> {
  %0 = "stablehlo.scatter"(%x, %at, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<6x7xf32>, tensor<5x2xi32>, tensor<5xf32>) -> tensor<6x7xf32>
  return %0 : tensor<6x7xf32>
}
