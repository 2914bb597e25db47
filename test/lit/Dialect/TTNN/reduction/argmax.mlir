// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @argmax
// CHECK: %{{[0-9]+}} = "ttnn.argmax"(%arg0) <{dim_arg = [2 : i32], keep_dim = false}> : (tensor<4x32x64xf32>) -> tensor<4x32xsi32>
module {
  func.func @argmax(%arg0: tensor<4x32x64xf32>) -> tensor<4x32xsi32> {
    %0 = "ttnn.argmax"(%arg0) <{dim_arg = [2 : i32], keep_dim = false}> : (tensor<4x32x64xf32>) -> tensor<4x32xsi32>
    return %0 : tensor<4x32xsi32>
  }
}
