// RUN: ttmlir-opt --verify-diagnostics %s

func.func @clamp_scalar(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.clamp_scalar' op requires a single operand}}
  %0 = "ttnn.clamp_scalar"(%arg0, %arg1) <{max = 6.000000e+00 : f32, min = 0.000000e+00 : f32}> : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
