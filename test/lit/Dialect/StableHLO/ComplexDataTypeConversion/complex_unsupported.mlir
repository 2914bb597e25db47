// REQUIRES: stablehlo
// RUN: not ttmlir-opt --split-input-file --stablehlo-complex-math-expander --stablehlo-complex-data-type-conversion %s 2>&1 | FileCheck %s
// Complex ops with no real-valued rewrite are refused at the op.

func.func @atan2(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // CHECK: complex_unsupported.mlir:[[# @LINE + 1]]:8: error: 'stablehlo.atan2' op on complex values is not supported
  %0 = stablehlo.atan2 %x, %x : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @fft(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // CHECK: complex_unsupported.mlir:[[# @LINE + 1]]:8: error: 'stablehlo.fft' op on complex values is not supported
  %0 = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
