// REQUIRES: stablehlo
// RUN: ttmlir-opt --inline %s | FileCheck %s
// A private function named only by a composite's decomposition is used: inlining the calls keeps it; one nothing
// names any more goes.

// CHECK-LABEL: func.func @main
// CHECK-NOT: func.call
// CHECK: stablehlo.composite "tenstorrent.gelu" %0 {decomposition = @gelu_impl}
// CHECK: func.func private @gelu_impl
// CHECK-NOT: @twice
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.composite "tenstorrent.gelu" %0 {decomposition = @gelu_impl} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @gelu_impl(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
