// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.cumsum' op requires a single operand}}
module {
  func.func @cumsum(%arg0: tensor<4x32xf32>, %arg1: tensor<4x32xf32>) -> tensor<4x32xf32> {
    %0 = "ttir.cumsum"(%arg0, %arg1) <{dim = 1 : i64}> : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    return %0 : tensor<4x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.cumsum' op requires attribute 'dim'}}
module {
  func.func @cumsum(%arg0: tensor<4x32xf32>) -> tensor<4x32xf32> {
    %0 = "ttir.cumsum"(%arg0) : (tensor<4x32xf32>) -> tensor<4x32xf32>
    return %0 : tensor<4x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.cumsum' op attribute 'dim' failed to satisfy constraint}}
module {
  func.func @cumsum(%arg0: tensor<4x32xf32>) -> tensor<4x32xf32> {
    %0 = "ttir.cumsum"(%arg0) <{dim = "oops"}> : (tensor<4x32xf32>) -> tensor<4x32xf32>
    return %0 : tensor<4x32xf32>
  }
}
