// RUN: ttmlir-opt --verify-diagnostics %s

func.func @argmax(%arg0: tensor<4x32x64xf32>, %arg1: tensor<4x32x64xf32>) -> tensor<4x32xsi32> {
  // expected-error @+1 {{'ttnn.argmax' op requires a single operand}}
  %0 = "ttnn.argmax"(%arg0, %arg1) <{dim_arg = [2 : i32], keep_dim = false}> : (tensor<4x32x64xf32>, tensor<4x32x64xf32>) -> tensor<4x32xsi32>
  return %0 : tensor<4x32xsi32>
}
