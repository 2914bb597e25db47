// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @layer_norm
// CHECK: %{{[0-9]+}} = "ttnn.layer_norm"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<4x32x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<4x32x64xf32>
module {
  func.func @layer_norm(%arg0: tensor<4x32x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>) -> tensor<4x32x64xf32> {
    %0 = "ttnn.layer_norm"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<4x32x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<4x32x64xf32>
    return %0 : tensor<4x32x64xf32>
  }
}
