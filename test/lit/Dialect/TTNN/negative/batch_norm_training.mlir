// RUN: ttmlir-opt --verify-diagnostics %s

func.func @batch_norm_training(%arg0: tensor<2x16x32xf32>, %arg1: tensor<1x16x1x1xf32>, %arg2: tensor<1x16x1x1xf32>) -> (tensor<2x16x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>) {
  // expected-error @+1 {{'ttnn.batch_norm_training' op Input tensor must have rank 4}}
  %0, %1, %2 = "ttnn.batch_norm_training"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, momentum = 1.000000e-01 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<2x16x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>) -> (tensor<2x16x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>)
  return %0, %1, %2 : tensor<2x16x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>
}
