// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @global_avg_pool2d
// CHECK: %{{[0-9]+}} = "ttnn.global_avg_pool2d"(%arg0) : (tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32>
module {
  func.func @global_avg_pool2d(%arg0: tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32> {
    %0 = "ttnn.global_avg_pool2d"(%arg0) : (tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32>
    return %0 : tensor<1x1x1x512xf32>
  }
}
