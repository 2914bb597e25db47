// RUN: ttmlir-opt --verify-diagnostics %s

func.func @isfinite(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.isfinite' op requires a single operand}}
  %0 = "ttnn.isfinite"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
