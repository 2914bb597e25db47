// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @reverse
// CHECK: %{{[0-9]+}} = "ttnn.reverse"(%arg0) <{dimensions = array<i64: 0, 1>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
module {
  func.func @reverse(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttnn.reverse"(%arg0) <{dimensions = array<i64: 0, 1>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
