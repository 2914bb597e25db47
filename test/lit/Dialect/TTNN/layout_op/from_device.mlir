// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @from_device
// CHECK: %{{[0-9]+}} = "ttnn.from_device"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @from_device(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.from_device"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
