// RUN: ttmlir-opt --verify-diagnostics %s

func.func @mean(%arg0: tensor<4x32x64xf32>, %arg1: tensor<4x32x64xf32>) -> tensor<4x1x64xf32> {
  // expected-error @+1 {{'ttnn.mean' op requires a single operand}}
  %0 = "ttnn.mean"(%arg0, %arg1) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<4x32x64xf32>, tensor<4x32x64xf32>) -> tensor<4x1x64xf32>
  return %0 : tensor<4x1x64xf32>
}
