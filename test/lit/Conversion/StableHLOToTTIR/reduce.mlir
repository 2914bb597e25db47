// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s
// A reduce's body says which reduction it is; an init value that changes the result is combined in.

module @jit_reduce {
  // CHECK-LABEL: func.func public @sum_max
  func.func public @sum_max(%a: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<4xf32>) {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    // CHECK: %[[SUM:.*]] = "ttir.sum"(%arg0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x8xf32>) -> tensor<4xf32>
    %0 = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    // CHECK: "ttir.max"(%arg0) <{dim_arg = [0 : i32], keep_dim = false}> : (tensor<4x8xf32>) -> tensor<8xf32>
    %1 = stablehlo.reduce(%a init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
    // a sum starting at 1 adds 1 to the result
    // CHECK: "ttir.add"(%[[SUM]],
    %2 = stablehlo.reduce(%a init: %one) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    return %0, %1, %2 : tensor<4xf32>, tensor<8xf32>, tensor<4xf32>
  }

  // CHECK-LABEL: func.func public @argmax
  func.func public @argmax(%a: tensor<4x8xf32>) -> tensor<4xi32> {
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %iota = stablehlo.iota dim = 1 : tensor<4x8xi32>
    // CHECK: "ttir.argmax"(%arg0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x8xf32>) -> tensor<4xi32>
    %0:2 = stablehlo.reduce(%a init: %ninf), (%iota init: %c0) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
     reducer(%x: tensor<f32>, %y: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>)  {
      %gt = stablehlo.compare GT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = stablehlo.select %gt, %x, %y : tensor<i1>, tensor<f32>
      %k = stablehlo.select %gt, %i, %j : tensor<i1>, tensor<i32>
      stablehlo.return %v, %k : tensor<f32>, tensor<i32>
    }
    return %0#1 : tensor<4xi32>
  }

  // CHECK-LABEL: func.func public @cumsum
  func.func public @cumsum(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    // CHECK: "ttir.cumsum"(%arg0) <{dim = 1 : i64}>
    %0 = "stablehlo.reduce_window"(%a, %zero) <{padding = dense<[[0, 0], [7, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 8>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}
