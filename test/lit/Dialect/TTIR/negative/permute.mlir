// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.permute' op requires a single operand}}
module {
  func.func @permute(%arg0: tensor<1x4x32x64xf32>, %arg1: tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32> {
    %0 = "ttir.permute"(%arg0, %arg1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x4x32x64xf32>, tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32>
    return %0 : tensor<1x32x4x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.permute' op requires attribute 'permutation'}}
module {
  func.func @permute(%arg0: tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32> {
    %0 = "ttir.permute"(%arg0) : (tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32>
    return %0 : tensor<1x32x4x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.permute' op attribute 'permutation' failed to satisfy constraint}}
module {
  func.func @permute(%arg0: tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32> {
    %0 = "ttir.permute"(%arg0) <{permutation = "oops"}> : (tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32>
    return %0 : tensor<1x32x4x64xf32>
  }
}
