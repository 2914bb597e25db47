// RUN: ttmlir-opt --verify-diagnostics %s

func.func @cumsum(%arg0: tensor<4x32xf32>, %arg1: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'ttnn.cumsum' op requires a single operand}}
  %0 = "ttnn.cumsum"(%arg0, %arg1) <{dim = 1 : si32}> : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
