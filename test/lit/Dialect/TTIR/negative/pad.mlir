// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.pad' op requires a single operand}}
module {
  func.func @pad(%arg0: tensor<1x30x30xf32>, %arg1: tensor<1x30x30xf32>) -> tensor<1x32x32xf32> {
    %0 = "ttir.pad"(%arg0, %arg1) <{padding = array<i32: 0, 0, 1, 1, 2, 0>, value = 0.000000e+00 : f32}> : (tensor<1x30x30xf32>, tensor<1x30x30xf32>) -> tensor<1x32x32xf32>
    return %0 : tensor<1x32x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.pad' op requires attribute 'padding'}}
module {
  func.func @pad(%arg0: tensor<1x30x30xf32>) -> tensor<1x32x32xf32> {
    %0 = "ttir.pad"(%arg0) <{value = 0.000000e+00 : f32}> : (tensor<1x30x30xf32>) -> tensor<1x32x32xf32>
    return %0 : tensor<1x32x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.pad' op attribute 'padding' failed to satisfy constraint}}
module {
  func.func @pad(%arg0: tensor<1x30x30xf32>) -> tensor<1x32x32xf32> {
    %0 = "ttir.pad"(%arg0) <{padding = "oops", value = 0.000000e+00 : f32}> : (tensor<1x30x30xf32>) -> tensor<1x32x32xf32>
    return %0 : tensor<1x32x32xf32>
  }
}
