// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @typecast
// CHECK: %{{[0-9]+}} = "ttnn.typecast"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xbf16>
module {
  func.func @typecast(%arg0: tensor<64x128xf32>) -> tensor<64x128xbf16> {
    %0 = "ttnn.typecast"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xbf16>
    return %0 : tensor<64x128xbf16>
  }
}
