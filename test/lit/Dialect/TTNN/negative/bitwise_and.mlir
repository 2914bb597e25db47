// RUN: ttmlir-opt --verify-diagnostics %s

func.func @bitwise_and(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>, %arg2: tensor<64x128xsi32>) -> tensor<64x128xsi32> {
  // expected-error @+1 {{'ttnn.bitwise_and' op expected 2 operands, but found 3}}
  %0 = "ttnn.bitwise_and"(%arg0, %arg1, %arg2) : (tensor<64x128xsi32>, tensor<1x128xsi32>, tensor<64x128xsi32>) -> tensor<64x128xsi32>
  return %0 : tensor<64x128xsi32>
}
