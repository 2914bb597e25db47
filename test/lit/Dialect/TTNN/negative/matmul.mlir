// RUN: ttmlir-opt --verify-diagnostics %s

func.func @matmul(%arg0: tensor<64x128xf32>, %arg1: tensor<128x96xf32>, %arg2: tensor<64x128xf32>) -> tensor<64x96xf32> {
  // expected-error @+1 {{'ttnn.matmul' op expected 2 operands, but found 3}}
  %0 = "ttnn.matmul"(%arg0, %arg1, %arg2) : (tensor<64x128xf32>, tensor<128x96xf32>, tensor<64x128xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}
