// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @exp2
// CHECK: %{{[0-9]+}} = "ttnn.exp2"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @exp2(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.exp2"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
