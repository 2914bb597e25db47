// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @sigmoid
// CHECK: %{{[0-9]+}} = "ttnn.sigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @sigmoid(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.sigmoid"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
