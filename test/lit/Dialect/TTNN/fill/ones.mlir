// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @ones
// CHECK: %{{[0-9]+}} = "ttnn.ones"() <{shape = #ttnn.shape<64x128>}> : () -> tensor<64x128xf32>
module {
  func.func @ones() -> tensor<64x128xf32> {
    %0 = "ttnn.ones"() <{shape = #ttnn.shape<64x128>}> : () -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
