// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @concat
// CHECK: %{{[0-9]+}} = "ttnn.concat"(%arg0, %arg1) <{dim = 1 : si32}> : (tensor<4x32xf32>, tensor<4x64xf32>) -> tensor<4x96xf32>
module {
  func.func @concat(%arg0: tensor<4x32xf32>, %arg1: tensor<4x64xf32>) -> tensor<4x96xf32> {
    %0 = "ttnn.concat"(%arg0, %arg1) <{dim = 1 : si32}> : (tensor<4x32xf32>, tensor<4x64xf32>) -> tensor<4x96xf32>
    return %0 : tensor<4x96xf32>
  }
}
