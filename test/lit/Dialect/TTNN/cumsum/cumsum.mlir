// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @cumsum
// CHECK: %{{[0-9]+}} = "ttnn.cumsum"(%arg0) <{dim = 1 : si32}> : (tensor<4x32xf32>) -> tensor<4x32xf32>
module {
  func.func @cumsum(%arg0: tensor<4x32xf32>) -> tensor<4x32xf32> {
    %0 = "ttnn.cumsum"(%arg0) <{dim = 1 : si32}> : (tensor<4x32xf32>) -> tensor<4x32xf32>
    return %0 : tensor<4x32xf32>
  }
}
