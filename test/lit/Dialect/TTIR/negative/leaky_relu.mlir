// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.leaky_relu' op requires a single operand}}
module {
  func.func @leaky_relu(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.leaky_relu"(%arg0, %arg1) <{parameter = 0.00999999977 : f32}> : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.leaky_relu' op requires attribute 'parameter'}}
module {
  func.func @leaky_relu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.leaky_relu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.leaky_relu' op attribute 'parameter' failed to satisfy constraint}}
module {
  func.func @leaky_relu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.leaky_relu"(%arg0) <{parameter = "oops"}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
