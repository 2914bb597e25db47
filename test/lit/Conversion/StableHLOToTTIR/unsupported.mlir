// REQUIRES: stablehlo
// RUN: not ttmlir-opt --convert-stablehlo-to-ttir %s 2>&1 | FileCheck %s
// An op no pattern lowers is a located error naming it.

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: unsupported.mlir:[[# @LINE + 1]]:8: error: failed to legalize operation 'stablehlo.round_nearest_even'
  %0 = stablehlo.round_nearest_even %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
