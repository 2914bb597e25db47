// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @batch_norm_training
// CHECK: %result, %batch_mean, %batch_variance = "ttnn.batch_norm_training"(%arg0, %arg1, %arg2, %arg3, %arg4) <{epsilon = 9.99999974E-6 : f32, momentum = 1.000000e-01 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}> : (tensor<2x16x32x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>) -> (tensor<2x16x32x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>)
module {
  func.func @batch_norm_training(%arg0: tensor<2x16x32x32xf32>, %arg1: tensor<1x16x1x1xf32>, %arg2: tensor<1x16x1x1xf32>, %arg3: tensor<1x16x1x1xf32>, %arg4: tensor<1x16x1x1xf32>) -> (tensor<2x16x32x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>) {
    %0, %1, %2 = "ttnn.batch_norm_training"(%arg0, %arg1, %arg2, %arg3, %arg4) <{epsilon = 9.99999974E-6 : f32, momentum = 1.000000e-01 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}> : (tensor<2x16x32x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>) -> (tensor<2x16x32x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>)
    return %0, %1, %2 : tensor<2x16x32x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>
  }
}
