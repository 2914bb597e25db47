// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.unsqueeze' op requires a single operand}}
module {
  func.func @unsqueeze(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>) -> tensor<1x32x64xf32> {
    %0 = "ttir.unsqueeze"(%arg0, %arg1) <{dim = 0 : si32}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<1x32x64xf32>
    return %0 : tensor<1x32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.unsqueeze' op requires attribute 'dim'}}
module {
  func.func @unsqueeze(%arg0: tensor<32x64xf32>) -> tensor<1x32x64xf32> {
    %0 = "ttir.unsqueeze"(%arg0) : (tensor<32x64xf32>) -> tensor<1x32x64xf32>
    return %0 : tensor<1x32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.unsqueeze' op attribute 'dim' failed to satisfy constraint}}
module {
  func.func @unsqueeze(%arg0: tensor<32x64xf32>) -> tensor<1x32x64xf32> {
    %0 = "ttir.unsqueeze"(%arg0) <{dim = "oops"}> : (tensor<32x64xf32>) -> tensor<1x32x64xf32>
    return %0 : tensor<1x32x64xf32>
  }
}
