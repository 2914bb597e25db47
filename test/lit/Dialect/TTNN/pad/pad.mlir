// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @pad
// CHECK: %{{[0-9]+}} = "ttnn.pad"(%arg0) <{padding = array<i32: 0, 0, 1, 1, 2, 0>, value = 0.000000e+00 : f32}> : (tensor<1x30x30xf32>) -> tensor<1x32x32xf32>
module {
  func.func @pad(%arg0: tensor<1x30x30xf32>) -> tensor<1x32x32xf32> {
    %0 = "ttnn.pad"(%arg0) <{padding = array<i32: 0, 0, 1, 1, 2, 0>, value = 0.000000e+00 : f32}> : (tensor<1x30x30xf32>) -> tensor<1x32x32xf32>
    return %0 : tensor<1x32x32xf32>
  }
}
