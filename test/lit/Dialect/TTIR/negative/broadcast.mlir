// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.broadcast' op requires a single operand}}
module {
  func.func @broadcast(%arg0: tensor<1x64xf32>, %arg1: tensor<1x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.broadcast"(%arg0, %arg1) <{broadcast_dimensions = array<i64: 32, 1>}> : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.broadcast' op requires attribute 'broadcast_dimensions'}}
module {
  func.func @broadcast(%arg0: tensor<1x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.broadcast"(%arg0) : (tensor<1x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.broadcast' op attribute 'broadcast_dimensions' failed to satisfy constraint}}
module {
  func.func @broadcast(%arg0: tensor<1x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = "oops"}> : (tensor<1x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
