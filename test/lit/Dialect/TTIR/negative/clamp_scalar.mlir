// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.clamp_scalar' op requires a single operand}}
module {
  func.func @clamp_scalar(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.clamp_scalar"(%arg0, %arg1) <{max = 6.000000e+00 : f32, min = 0.000000e+00 : f32}> : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.clamp_scalar' op requires attribute 'min'}}
module {
  func.func @clamp_scalar(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.clamp_scalar"(%arg0) <{max = 6.000000e+00 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.clamp_scalar' op attribute 'min' failed to satisfy constraint}}
module {
  func.func @clamp_scalar(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.clamp_scalar"(%arg0) <{max = 6.000000e+00 : f32, min = "oops"}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
