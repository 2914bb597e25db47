// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @full
// CHECK: %{{[0-9]+}} = "ttnn.full"(%arg0) <{fill_value = 1.500000e+00 : f32, shape = #ttnn.shape<64x128>}> : (!ttnn.device) -> tensor<64x128xf32>
module {
  func.func @full(%arg0: !ttnn.device) -> tensor<64x128xf32> {
    %0 = "ttnn.full"(%arg0) <{fill_value = 1.500000e+00 : f32, shape = #ttnn.shape<64x128>}> : (!ttnn.device) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
