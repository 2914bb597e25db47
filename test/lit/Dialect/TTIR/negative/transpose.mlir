// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.transpose' op requires a single operand}}
module {
  func.func @transpose(%arg0: tensor<4x32x64xf32>, %arg1: tensor<4x32x64xf32>) -> tensor<4x64x32xf32> {
    %0 = "ttir.transpose"(%arg0, %arg1) <{dim0 = -2 : si32, dim1 = -1 : si32}> : (tensor<4x32x64xf32>, tensor<4x32x64xf32>) -> tensor<4x64x32xf32>
    return %0 : tensor<4x64x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.transpose' op requires attribute 'dim0'}}
module {
  func.func @transpose(%arg0: tensor<4x32x64xf32>) -> tensor<4x64x32xf32> {
    %0 = "ttir.transpose"(%arg0) : (tensor<4x32x64xf32>) -> tensor<4x64x32xf32>
    return %0 : tensor<4x64x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.transpose' op attribute 'dim0' failed to satisfy constraint}}
module {
  func.func @transpose(%arg0: tensor<4x32x64xf32>) -> tensor<4x64x32xf32> {
    %0 = "ttir.transpose"(%arg0) <{dim0 = "oops"}> : (tensor<4x32x64xf32>) -> tensor<4x64x32xf32>
    return %0 : tensor<4x64x32xf32>
  }
}
