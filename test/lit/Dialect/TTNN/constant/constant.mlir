// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @constant
// CHECK: %{{[0-9]+}} = "ttnn.constant"() <{value = dense<1.000000e+00> : tensor<64x128xf32>}> : () -> tensor<64x128xf32>
module {
  func.func @constant() -> tensor<64x128xf32> {
    %0 = "ttnn.constant"() <{value = dense<1.000000e+00> : tensor<64x128xf32>}> : () -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
