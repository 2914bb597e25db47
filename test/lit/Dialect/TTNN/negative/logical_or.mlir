// RUN: ttmlir-opt --verify-diagnostics %s

func.func @logical_or(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>, %arg2: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.logical_or' op expected 2 operands, but found 3}}
  %0 = "ttnn.logical_or"(%arg0, %arg1, %arg2) : (tensor<64x128xf32>, tensor<1x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
