// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @bitwise_or
// CHECK: %{{[0-9]+}} = "ttnn.bitwise_or"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
module {
  func.func @bitwise_or(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttnn.bitwise_or"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
}
