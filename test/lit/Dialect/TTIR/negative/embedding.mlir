// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.embedding' op expected 2 operands, but found 3}}
module {
  func.func @embedding(%arg0: tensor<32x16xsi32>, %arg1: tensor<512x128xf32>, %arg2: tensor<32x16xsi32>) -> tensor<32x16x128xf32> {
    %0 = "ttir.embedding"(%arg0, %arg1, %arg2) : (tensor<32x16xsi32>, tensor<512x128xf32>, tensor<32x16xsi32>) -> tensor<32x16x128xf32>
    return %0 : tensor<32x16x128xf32>
  }
}
