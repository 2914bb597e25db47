// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @flat_statistics(%arg0: tensor<2x16x32x32xf32>, %arg1: tensor<16xf32>, %arg2: tensor<1x16x1x1xf32>) -> tensor<2x16x32x32xf32> {
  // expected-error @+1 {{'ttnn.batch_norm_inference' op Running mean tensor must have rank 4}}
  %0 = "ttnn.batch_norm_inference"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<1x16x1x1xf32>) -> tensor<2x16x32x32xf32>
  return %0 : tensor<2x16x32x32xf32>
}

// -----

func.func @no_statistics(%arg0: tensor<2x16x32x32xf32>, %arg1: tensor<1x16x1x1xf32>) -> tensor<2x16x32x32xf32> {
  // expected-error @+1 {{'ttnn.batch_norm_inference' op inference normalizes by the running statistics: running_mean and running_var are required}}
  %0 = "ttnn.batch_norm_inference"(%arg0, %arg1) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 0, 0, 1, 0>}> : (tensor<2x16x32x32xf32>, tensor<1x16x1x1xf32>) -> tensor<2x16x32x32xf32>
  return %0 : tensor<2x16x32x32xf32>
}
