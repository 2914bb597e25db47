// RUN: ttmlir-opt --verify-diagnostics %s

func.func @sqrt(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.sqrt' op requires a single operand}}
  %0 = "ttnn.sqrt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
