// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @rand
// CHECK: %{{[0-9]+}} = "ttnn.rand"(%arg0) <{high = 1.000000e+00 : f32, low = 0.000000e+00 : f32, seed = 0 : ui32, size = #ttnn.shape<64x128>}> : (!ttnn.device) -> tensor<64x128xf32>
module {
  func.func @rand(%arg0: !ttnn.device) -> tensor<64x128xf32> {
    %0 = "ttnn.rand"(%arg0) <{high = 1.000000e+00 : f32, low = 0.000000e+00 : f32, seed = 0 : ui32, size = #ttnn.shape<64x128>}> : (!ttnn.device) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
