// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @prod
// CHECK: %{{[0-9]+}} = "ttnn.prod"(%arg0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<4x32x64xf32>) -> tensor<4x1x64xf32>
module {
  func.func @prod(%arg0: tensor<4x32x64xf32>) -> tensor<4x1x64xf32> {
    %0 = "ttnn.prod"(%arg0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<4x32x64xf32>) -> tensor<4x1x64xf32>
    return %0 : tensor<4x1x64xf32>
  }
}
