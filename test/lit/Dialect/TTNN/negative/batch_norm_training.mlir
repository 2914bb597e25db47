// RUN: ttmlir-opt --verify-diagnostics %s

func.func @batch_norm_training(%arg0: tensor<2x16x32x32xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>, %arg5: tensor<2x16x32x32xf32>) -> (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>) {
  // expected-error @+1 {{'ttnn.batch_norm_training' op expected 5 operands, but found 6}}
  %0, %1, %2 = "ttnn.batch_norm_training"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) <{dimension = 1 : i32, epsilon = 9.99999974E-6 : f32, momentum = 1.000000e-01 : f32}> : (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2x16x32x32xf32>) -> (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>)
  return %0, %1, %2 : tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>
}
