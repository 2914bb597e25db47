// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// TTNN's argmax reduces one dimension (`dim`, si32) or, without it, the whole tensor.
// CHECK-LABEL: func.func @argmax
// CHECK: %{{[0-9]+}} = "ttnn.argmax"(%arg0) <{dim = 2 : si32, keep_dim = false}> : (tensor<4x32x64xf32>) -> tensor<4x32xui32>
// CHECK: %{{[0-9]+}} = "ttnn.argmax"(%arg0) <{keep_dim = true}> : (tensor<4x32x64xf32>) -> tensor<1x1x1xui32>
module {
  func.func @argmax(%arg0: tensor<4x32x64xf32>) -> (tensor<4x32xui32>, tensor<1x1x1xui32>) {
    %0 = "ttnn.argmax"(%arg0) <{dim = 2 : si32, keep_dim = false}> : (tensor<4x32x64xf32>) -> tensor<4x32xui32>
    %1 = "ttnn.argmax"(%arg0) <{keep_dim = true}> : (tensor<4x32x64xf32>) -> tensor<1x1x1xui32>
    return %0, %1 : tensor<4x32xui32>, tensor<1x1x1xui32>
  }
}
