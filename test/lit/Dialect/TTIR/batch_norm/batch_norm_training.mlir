// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @batch_norm_training
// CHECK: %result, %batch_mean, %batch_variance = "ttir.batch_norm_training"(%arg0, %arg1, %arg2, %arg3, %arg4) <{dimension = 1 : i32, epsilon = 9.99999974E-6 : f32, momentum = 1.000000e-01 : f32}> : (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>)
// TTNN: "ttnn.batch_norm_training"
// TTNN-SAME: #ttnn_layout
module {
  func.func @batch_norm_training(%arg0: tensor<2x16x32x32xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>) -> (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>) {
    %0, %1, %2 = "ttir.batch_norm_training"(%arg0, %arg1, %arg2, %arg3, %arg4) <{dimension = 1 : i32, epsilon = 9.99999974E-6 : f32, momentum = 1.000000e-01 : f32}> : (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>)
    return %0, %1, %2 : tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>
  }
}
