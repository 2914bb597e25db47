// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.typecast' op requires a single operand}}
module {
  func.func @typecast(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xbf16> {
    %0 = "ttir.typecast"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xbf16>
    return %0 : tensor<64x128xbf16>
  }
}
