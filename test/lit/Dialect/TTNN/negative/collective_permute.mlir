// RUN: ttmlir-opt --verify-diagnostics %s

func.func @collective_permute(%arg0: tensor<1x1x32x128xf32>, %arg1: tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32> {
  // expected-error @+1 {{'ttnn.collective_permute' op requires a single operand}}
  %0 = "ttnn.collective_permute"(%arg0, %arg1) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<1x1x32x128xf32>, tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
  return %0 : tensor<1x1x32x128xf32>
}
