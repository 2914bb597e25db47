// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @leaky_relu
// CHECK: %{{[0-9]+}} = "ttnn.leaky_relu"(%arg0) <{parameter = 0.00999999977 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @leaky_relu(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.leaky_relu"(%arg0) <{parameter = 0.00999999977 : f32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
