// REQUIRES: stablehlo
// RUN: not ttmlir-opt --convert-stablehlo-to-ttir %s 2>&1 | FileCheck %s
// An argmax-shaped reduce starts from the lowest value; a start that could win (here 0.5) is refused, not dropped.

func.func @main(%x: tensor<2x3xf32>) -> tensor<2xi32> {
  %start = stablehlo.constant dense<0.5> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %iota = stablehlo.iota dim = 1 : tensor<2x3xi32>
  // CHECK: argmax_init.mlir:[[# @LINE + 1]]:10: error: failed to legalize operation 'stablehlo.reduce': an argmax's initial value must be the lowest value
  %r:2 = stablehlo.reduce(%x init: %start), (%iota init: %zero) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>)  {
    %gt = stablehlo.compare  GT, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
    %k = stablehlo.select %gt, %i, %j : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }
  return %r#1 : tensor<2xi32>
}
