// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.concat' op requires attribute 'dim'}}
module {
  func.func @concat(%arg0: tensor<4x32xf32>, %arg1: tensor<4x64xf32>) -> tensor<4x96xf32> {
    %0 = "ttir.concat"(%arg0, %arg1) : (tensor<4x32xf32>, tensor<4x64xf32>) -> tensor<4x96xf32>
    return %0 : tensor<4x96xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.concat' op attribute 'dim' failed to satisfy constraint}}
module {
  func.func @concat(%arg0: tensor<4x32xf32>, %arg1: tensor<4x64xf32>) -> tensor<4x96xf32> {
    %0 = "ttir.concat"(%arg0, %arg1) <{dim = "oops"}> : (tensor<4x32xf32>, tensor<4x64xf32>) -> tensor<4x96xf32>
    return %0 : tensor<4x96xf32>
  }
}
