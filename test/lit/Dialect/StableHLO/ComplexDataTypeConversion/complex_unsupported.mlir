// REQUIRES: stablehlo
// RUN: not ttmlir-opt --split-input-file --stablehlo-complex-math-expander --stablehlo-complex-data-type-conversion %s 2>&1 | FileCheck %s
// Complex ops with no real-valued rewrite are refused at the op.

func.func @power(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // CHECK: complex_unsupported.mlir:[[# @LINE + 1]]:8: error: 'stablehlo.power' op on complex values is not supported
  %0 = stablehlo.power %x, %x : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @compare(%x: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  // CHECK: complex_unsupported.mlir:[[# @LINE + 1]]:8: error: 'stablehlo.compare' op on complex values is not supported
  %0 = stablehlo.compare EQ, %x, %x : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
