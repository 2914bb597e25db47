// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.avg_pool2d' op requires a single operand}}
module {
  func.func @avg_pool2d(%arg0: tensor<1x32x32x64xf32>, %arg1: tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32> {
    %0 = "ttir.avg_pool2d"(%arg0, %arg1) <{ceil_mode = false, count_include_pad = true, dilation = array<i32: 1, 1>, kernel = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x32x32x64xf32>, tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32>
    return %0 : tensor<1x32x32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.avg_pool2d' op requires attribute 'kernel'}}
module {
  func.func @avg_pool2d(%arg0: tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32> {
    %0 = "ttir.avg_pool2d"(%arg0) <{ceil_mode = false, count_include_pad = true, dilation = array<i32: 1, 1>, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32>
    return %0 : tensor<1x32x32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.avg_pool2d' op attribute 'kernel' failed to satisfy constraint}}
module {
  func.func @avg_pool2d(%arg0: tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32> {
    %0 = "ttir.avg_pool2d"(%arg0) <{ceil_mode = false, count_include_pad = true, dilation = array<i32: 1, 1>, kernel = "oops", padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32>
    return %0 : tensor<1x32x32x64xf32>
  }
}
