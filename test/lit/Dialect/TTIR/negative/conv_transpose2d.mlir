// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.conv_transpose2d' op requires attribute 'stride'}}
module {
  func.func @conv_transpose2d(%arg0: tensor<1x16x16x64xf32>, %arg1: tensor<64x32x2x2xf32>, %arg2: tensor<1x1x1x32xf32>) -> tensor<1x32x32x32xf32> {
    %0 = "ttir.conv_transpose2d"(%arg0, %arg1, %arg2) <{dilation = 1 : i32, groups = 1 : i32, output_padding = 0 : i32, padding = 0 : i32}> : (tensor<1x16x16x64xf32>, tensor<64x32x2x2xf32>, tensor<1x1x1x32xf32>) -> tensor<1x32x32x32xf32>
    return %0 : tensor<1x32x32x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.conv_transpose2d' op attribute 'stride' failed to satisfy constraint}}
module {
  func.func @conv_transpose2d(%arg0: tensor<1x16x16x64xf32>, %arg1: tensor<64x32x2x2xf32>, %arg2: tensor<1x1x1x32xf32>) -> tensor<1x32x32x32xf32> {
    %0 = "ttir.conv_transpose2d"(%arg0, %arg1, %arg2) <{dilation = 1 : i32, groups = 1 : i32, output_padding = 0 : i32, padding = 0 : i32, stride = "oops"}> : (tensor<1x16x16x64xf32>, tensor<64x32x2x2xf32>, tensor<1x1x1x32xf32>) -> tensor<1x32x32x32xf32>
    return %0 : tensor<1x32x32x32xf32>
  }
}
