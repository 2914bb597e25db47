// RUN: ttmlir-opt --verify-diagnostics %s

func.func @mish(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.mish' op requires a single operand}}
  %0 = "ttnn.mish"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
