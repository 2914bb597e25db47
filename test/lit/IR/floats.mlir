// RUN: ttmlir-opt %s | FileCheck %s
// Floats print as mlir-opt prints them: six decimals when exact, APFloat's spelling otherwise.

// CHECK: epsilon = 9.99999974E-6 : f32
// CHECK-SAME: momentum = 1.000000e-01 : f32
// The ninth digit is rounded (4294967296 is 4.29496729|6), a positive exponent signed.
// CHECK: high = 4.2949673E+9 : f32
module {
  func.func @bn(%arg0: tensor<2x16x8x8xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>) -> tensor<2x16x8x8xf32> {
    %result, %batch_mean, %batch_variance = "ttir.batch_norm_training"(%arg0, %arg1, %arg2, %arg3, %arg4) <{dimension = 1 : i32, epsilon = 1.0E-5 : f32, momentum = 0.1 : f32}> : (tensor<2x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<2x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
    return %result : tensor<2x16x8x8xf32>
  }
  func.func @rand() -> tensor<2x4xf32> {
    %0 = "ttir.rand"() <{high = 4294967296.0 : f32, low = 0.0 : f32, seed = 0 : ui32, size = [2 : i32, 4 : i32]}> : () -> tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
  }
}
