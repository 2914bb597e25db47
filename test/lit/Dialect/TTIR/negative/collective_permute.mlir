// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.collective_permute' op requires a single operand}}
module {
  func.func @collective_permute(%arg0: tensor<1x1x32x128xf32>, %arg1: tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttir.collective_permute"(%arg0, %arg1) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<1x1x32x128xf32>, tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.collective_permute' op requires attribute 'source_target_pairs'}}
module {
  func.func @collective_permute(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttir.collective_permute"(%arg0) : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.collective_permute' op attribute 'source_target_pairs' failed to satisfy constraint}}
module {
  func.func @collective_permute(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttir.collective_permute"(%arg0) <{source_target_pairs = "oops"}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
