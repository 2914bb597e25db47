// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.conv2d' op requires attribute 'stride'}}
module {
  func.func @conv2d(%arg0: tensor<1x32x32x64xf32>, %arg1: tensor<64x64x3x3xf32>, %arg2: tensor<1x1x1x64xf32>) -> tensor<1x32x32x64xf32> {
    %0 = "ttir.conv2d"(%arg0, %arg1, %arg2) <{dilation = 1 : i32, groups = 1 : i32, padding = 1 : i32}> : (tensor<1x32x32x64xf32>, tensor<64x64x3x3xf32>, tensor<1x1x1x64xf32>) -> tensor<1x32x32x64xf32>
    return %0 : tensor<1x32x32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.conv2d' op attribute 'stride' failed to satisfy constraint}}
module {
  func.func @conv2d(%arg0: tensor<1x32x32x64xf32>, %arg1: tensor<64x64x3x3xf32>, %arg2: tensor<1x1x1x64xf32>) -> tensor<1x32x32x64xf32> {
    %0 = "ttir.conv2d"(%arg0, %arg1, %arg2) <{dilation = 1 : i32, groups = 1 : i32, padding = 1 : i32, stride = "oops"}> : (tensor<1x32x32x64xf32>, tensor<64x64x3x3xf32>, tensor<1x1x1x64xf32>) -> tensor<1x32x32x64xf32>
    return %0 : tensor<1x32x32x64xf32>
  }
}
