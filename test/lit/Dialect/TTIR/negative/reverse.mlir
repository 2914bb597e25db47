// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.reverse' op requires a single operand}}
module {
  func.func @reverse(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.reverse"(%arg0, %arg1) <{dimensions = array<i64: 0, 1>}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.reverse' op requires attribute 'dimensions'}}
module {
  func.func @reverse(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.reverse"(%arg0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.reverse' op attribute 'dimensions' failed to satisfy constraint}}
module {
  func.func @reverse(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.reverse"(%arg0) <{dimensions = "oops"}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
