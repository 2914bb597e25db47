// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.logical_left_shift' op expected 2 operands, but found 3}}
module {
  func.func @logical_left_shift(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>, %arg2: tensor<64x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.logical_left_shift"(%arg0, %arg1, %arg2) : (tensor<64x128xsi32>, tensor<1x128xsi32>, tensor<64x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}
