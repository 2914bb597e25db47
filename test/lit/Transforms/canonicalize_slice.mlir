// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// A slice of a concat that takes exactly one of its inputs is that input.

// CHECK-LABEL: func.func @middle_piece
// CHECK-NEXT: return %arg1 : tensor<2x3x16xf32>
func.func @middle_piece(%arg0: tensor<2x5x16xf32>, %arg1: tensor<2x3x16xf32>, %arg2: tensor<2x1x16xf32>) -> tensor<2x3x16xf32> {
  %0 = "ttir.concat"(%arg0, %arg1, %arg2) <{dim = -2 : si32}> : (tensor<2x5x16xf32>, tensor<2x3x16xf32>, tensor<2x1x16xf32>) -> tensor<2x9x16xf32>
  %1 = "ttir.slice_static"(%0) <{begins = [0 : i32, 5 : i32, 0 : i32], ends = [2 : i32, 8 : i32, 16 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<2x9x16xf32>) -> tensor<2x3x16xf32>
  return %1 : tensor<2x3x16xf32>
}

// CHECK-LABEL: func.func @straddles_two_pieces
// CHECK: "ttir.concat"
// CHECK: "ttir.slice_static"
func.func @straddles_two_pieces(%arg0: tensor<2x5x16xf32>, %arg1: tensor<2x3x16xf32>) -> tensor<2x3x16xf32> {
  %0 = "ttir.concat"(%arg0, %arg1) <{dim = 1 : si32}> : (tensor<2x5x16xf32>, tensor<2x3x16xf32>) -> tensor<2x8x16xf32>
  %1 = "ttir.slice_static"(%0) <{begins = [0 : i32, 4 : i32, 0 : i32], ends = [2 : i32, 7 : i32, 16 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<2x8x16xf32>) -> tensor<2x3x16xf32>
  return %1 : tensor<2x3x16xf32>
}
