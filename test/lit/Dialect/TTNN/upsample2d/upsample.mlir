// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @upsample
// CHECK: %{{[0-9]+}} = "ttnn.upsample"(%arg0) <{mode = "nearest", scale_factor = 2 : si32}> : (tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32>
module {
  func.func @upsample(%arg0: tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32> {
    %0 = "ttnn.upsample"(%arg0) <{mode = "nearest", scale_factor = 2 : si32}> : (tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32>
    return %0 : tensor<1x32x32x32xf32>
  }
}
