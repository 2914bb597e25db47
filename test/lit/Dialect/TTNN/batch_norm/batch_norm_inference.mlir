// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// TTNN's order: input, running mean, running variance, weight, bias (the last two optional).
// CHECK-LABEL: func.func @batch_norm_inference
// CHECK: "ttnn.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}>
// CHECK-LABEL: func.func @batch_norm_inference_unscaled
// CHECK: "ttnn.batch_norm_inference"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}>
module {
  func.func @batch_norm_inference(%arg0: tensor<2x16x32x32xf32>, %arg1: tensor<1x16x1x1xf32>, %arg2: tensor<1x16x1x1xf32>, %arg3: tensor<1x16x1x1xf32>, %arg4: tensor<1x16x1x1xf32>) -> tensor<2x16x32x32xf32> {
    %0 = "ttnn.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}> : (tensor<2x16x32x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>) -> tensor<2x16x32x32xf32>
    return %0 : tensor<2x16x32x32xf32>
  }
  func.func @batch_norm_inference_unscaled(%arg0: tensor<2x16x32x32xf32>, %arg1: tensor<1x16x1x1xf32>, %arg2: tensor<1x16x1x1xf32>) -> tensor<2x16x32x32xf32> {
    %0 = "ttnn.batch_norm_inference"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<2x16x32x32xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>) -> tensor<2x16x32x32xf32>
    return %0 : tensor<2x16x32x32xf32>
  }
}
