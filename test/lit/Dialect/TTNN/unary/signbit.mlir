// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @signbit
// CHECK: %{{[0-9]+}} = "ttnn.signbit"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @signbit(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.signbit"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
