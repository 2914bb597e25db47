// RUN: ttmlir-opt --verify-diagnostics %s

func.func @where(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>, %arg2: tensor<64x128xf32>, %arg3: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.where' op expected 3 operands, but found 4}}
  %0 = "ttnn.where"(%arg0, %arg1, %arg2, %arg3) : (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
