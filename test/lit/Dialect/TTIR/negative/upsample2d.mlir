// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.upsample2d' op requires a single operand}}
module {
  func.func @upsample2d(%arg0: tensor<1x16x16x32xf32>, %arg1: tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32> {
    %0 = "ttir.upsample2d"(%arg0, %arg1) <{mode = "nearest", scale_factor = 2 : si32}> : (tensor<1x16x16x32xf32>, tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32>
    return %0 : tensor<1x32x32x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.upsample2d' op requires attribute 'scale_factor'}}
module {
  func.func @upsample2d(%arg0: tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32> {
    %0 = "ttir.upsample2d"(%arg0) <{mode = "nearest"}> : (tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32>
    return %0 : tensor<1x32x32x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.upsample2d' op attribute 'scale_factor' failed to satisfy constraint}}
module {
  func.func @upsample2d(%arg0: tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32> {
    %0 = "ttir.upsample2d"(%arg0) <{mode = "nearest", scale_factor = "oops"}> : (tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32>
    return %0 : tensor<1x32x32x32xf32>
  }
}
