// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.max_pool2d' op requires a single operand}}
module {
  func.func @max_pool2d(%arg0: tensor<1x32x32x64xf32>, %arg1: tensor<1x32x32x64xf32>) -> tensor<1x16x16x64xf32> {
    %0 = "ttir.max_pool2d"(%arg0, %arg1) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = array<i32: 2, 2>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x32x32x64xf32>, tensor<1x32x32x64xf32>) -> tensor<1x16x16x64xf32>
    return %0 : tensor<1x16x16x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.max_pool2d' op requires attribute 'kernel'}}
module {
  func.func @max_pool2d(%arg0: tensor<1x32x32x64xf32>) -> tensor<1x16x16x64xf32> {
    %0 = "ttir.max_pool2d"(%arg0) <{ceil_mode = false, dilation = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x32x32x64xf32>) -> tensor<1x16x16x64xf32>
    return %0 : tensor<1x16x16x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.max_pool2d' op attribute 'kernel' failed to satisfy constraint}}
module {
  func.func @max_pool2d(%arg0: tensor<1x32x32x64xf32>) -> tensor<1x16x16x64xf32> {
    %0 = "ttir.max_pool2d"(%arg0) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = "oops", padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x32x32x64xf32>) -> tensor<1x16x16x64xf32>
    return %0 : tensor<1x16x16x64xf32>
  }
}
