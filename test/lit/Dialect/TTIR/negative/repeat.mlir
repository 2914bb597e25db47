// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.repeat' op requires a single operand}}
module {
  func.func @repeat(%arg0: tensor<1x32x64xf32>, %arg1: tensor<1x32x64xf32>) -> tensor<4x32x128xf32> {
    %0 = "ttir.repeat"(%arg0, %arg1) <{repeat_dimensions = array<i64: 4, 1, 2>}> : (tensor<1x32x64xf32>, tensor<1x32x64xf32>) -> tensor<4x32x128xf32>
    return %0 : tensor<4x32x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.repeat' op requires attribute 'repeat_dimensions'}}
module {
  func.func @repeat(%arg0: tensor<1x32x64xf32>) -> tensor<4x32x128xf32> {
    %0 = "ttir.repeat"(%arg0) : (tensor<1x32x64xf32>) -> tensor<4x32x128xf32>
    return %0 : tensor<4x32x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.repeat' op attribute 'repeat_dimensions' failed to satisfy constraint}}
module {
  func.func @repeat(%arg0: tensor<1x32x64xf32>) -> tensor<4x32x128xf32> {
    %0 = "ttir.repeat"(%arg0) <{repeat_dimensions = "oops"}> : (tensor<1x32x64xf32>) -> tensor<4x32x128xf32>
    return %0 : tensor<4x32x128xf32>
  }
}
