// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @clamp_scalar
// CHECK: %{{[0-9]+}} = "ttnn.clamp_scalar"(%arg0) <{max = 6.000000e+00 : f32, min = 0.000000e+00 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @clamp_scalar(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.clamp_scalar"(%arg0) <{max = 6.000000e+00 : f32, min = 0.000000e+00 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
