// REQUIRES: stablehlo
// RUN: not ttmlir-opt --convert-stablehlo-to-ttir %s 2>&1 | FileCheck %s
// A scatter whose update computation TTIR has no reduction for is a located error.

// CHECK: scatter_negative.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'stablehlo.scatter': its update computation neither overwrites nor adds
func.func @subtracts(%x: tensor<8xf32>, %at: tensor<1x1xi32>, %v: tensor<1xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.scatter"(%x, %at, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.subtract %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
