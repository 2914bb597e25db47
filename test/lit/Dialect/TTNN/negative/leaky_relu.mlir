// RUN: ttmlir-opt --verify-diagnostics %s

func.func @leaky_relu(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.leaky_relu' op requires a single operand}}
  %0 = "ttnn.leaky_relu"(%arg0, %arg1) <{parameter = 0.00999999977 : f32}> : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
