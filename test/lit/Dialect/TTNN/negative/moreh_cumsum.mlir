// RUN: ttmlir-opt --verify-diagnostics %s

func.func @moreh_cumsum(%arg0: tensor<4x32xf32>, %arg1: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'ttnn.moreh_cumsum' op requires a single operand}}
  %0 = "ttnn.moreh_cumsum"(%arg0, %arg1) <{dim = 1 : i64}> : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
