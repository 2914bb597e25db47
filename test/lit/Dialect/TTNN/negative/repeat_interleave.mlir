// RUN: ttmlir-opt --verify-diagnostics %s

func.func @repeat_interleave(%arg0: tensor<4x32xf32>, %arg1: tensor<4x32xf32>) -> tensor<12x32xf32> {
  // expected-error @+1 {{'ttnn.repeat_interleave' op requires a single operand}}
  %0 = "ttnn.repeat_interleave"(%arg0, %arg1) <{dim = 0 : si32, repeats = 3 : ui32}> : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<12x32xf32>
  return %0 : tensor<12x32xf32>
}
