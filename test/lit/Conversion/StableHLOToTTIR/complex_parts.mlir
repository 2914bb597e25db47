// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-aggressive-simplification %s | FileCheck %s
// The real and imaginary parts of a complex built from two tensors are those tensors.
// CHECK-LABEL: func.func @parts
// CHECK-NOT: stablehlo.complex
// CHECK: %[[SUM:.*]] = stablehlo.add %arg1, %arg0 : tensor<4xf32>
// CHECK: return %[[SUM]]
func.func @parts(%re: tensor<4xf32>, %im: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.complex %re, %im : tensor<4xcomplex<f32>>
  %r = stablehlo.real %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %i = stablehlo.imag %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %0 = stablehlo.add %i, %r : tensor<4xf32>
  return %0 : tensor<4xf32>
}
