// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.logical_left_shift' op expected 2 operands, but found 3}}
module {
  func.func @logical_left_shift(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>, %arg2: tensor<64x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.logical_left_shift"(%arg0, %arg1, %arg2) : (tensor<64x128xsi32>, tensor<1x128xsi32>, tensor<64x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// A shift of floats (its operands and result are integers).
// expected-error @+3 {{'ttir.logical_left_shift' op Left operand element type must be integer, but got f32}}
module {
  func.func @logical_left_shift_of_floats(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.logical_left_shift"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<64x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}

// -----

// expected-error @+3 {{'ttir.logical_left_shift' op Output element type must be integer, but got bf16}}
module {
  func.func @logical_left_shift_into_floats(%arg0: tensor<64x128xsi32>, %arg1: tensor<64x128xsi32>) -> tensor<64x128xbf16> {
    %0 = "ttir.logical_left_shift"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<64x128xsi32>) -> tensor<64x128xbf16>
    return %0 : tensor<64x128xbf16>
  }
}
