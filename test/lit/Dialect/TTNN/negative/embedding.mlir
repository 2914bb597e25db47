// RUN: ttmlir-opt --verify-diagnostics %s

func.func @embedding(%arg0: tensor<32x16xsi32>, %arg1: tensor<512x128xf32>, %arg2: tensor<32x16xsi32>) -> tensor<32x16x128xf32> {
  // expected-error @+1 {{'ttnn.embedding' op expected 2 operands, but found 3}}
  %0 = "ttnn.embedding"(%arg0, %arg1, %arg2) : (tensor<32x16xsi32>, tensor<512x128xf32>, tensor<32x16xsi32>) -> tensor<32x16x128xf32>
  return %0 : tensor<32x16x128xf32>
}
