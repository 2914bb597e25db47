// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.eq' op expected 2 operands, but found 3}}
module {
  func.func @eq(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>, %arg2: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.eq"(%arg0, %arg1, %arg2) : (tensor<64x128xf32>, tensor<1x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
