// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.softmax' op requires a single operand}}
module {
  func.func @softmax(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.softmax"(%arg0, %arg1) <{dimension = 1 : si32}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.softmax' op requires attribute 'dimension'}}
module {
  func.func @softmax(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.softmax"(%arg0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.softmax' op attribute 'dimension' failed to satisfy constraint}}
module {
  func.func @softmax(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.softmax"(%arg0) <{dimension = "oops"}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
