// RUN: ttmlir-opt --verify-diagnostics %s

func.func @typecast(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xbf16> {
  // expected-error @+1 {{'ttnn.typecast' op requires a single operand}}
  %0 = "ttnn.typecast"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xbf16>
  return %0 : tensor<64x128xbf16>
}
