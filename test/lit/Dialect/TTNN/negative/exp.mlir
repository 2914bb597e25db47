// RUN: ttmlir-opt --verify-diagnostics %s

func.func @exp(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.exp' op requires a single operand}}
  %0 = "ttnn.exp"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
