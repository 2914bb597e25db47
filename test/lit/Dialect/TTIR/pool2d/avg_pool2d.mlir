// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @avg_pool2d
// CHECK: %{{[0-9]+}} = "ttir.avg_pool2d"(%arg0) <{ceil_mode = false, count_include_pad = true, dilation = array<i32: 1, 1>, kernel = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32>
module {
  func.func @avg_pool2d(%arg0: tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32> {
    %0 = "ttir.avg_pool2d"(%arg0) <{ceil_mode = false, count_include_pad = true, dilation = array<i32: 1, 1>, kernel = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32>
    return %0 : tensor<1x32x32x64xf32>
  }
}
