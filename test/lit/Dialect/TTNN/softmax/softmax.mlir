// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @softmax
// CHECK: %{{[0-9]+}} = "ttnn.softmax"(%arg0) <{dimension = 1 : si32}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
module {
  func.func @softmax(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttnn.softmax"(%arg0) <{dimension = 1 : si32}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
