// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.rms_norm' op requires attribute 'normalized_shape'}}
module {
  func.func @rms_norm(%arg0: tensor<4x32x64xf32>, %arg1: tensor<64xf32>) -> tensor<4x32x64xf32> {
    %0 = "ttir.rms_norm"(%arg0, %arg1) <{epsilon = 9.99999997E-7 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<4x32x64xf32>, tensor<64xf32>) -> tensor<4x32x64xf32>
    return %0 : tensor<4x32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.rms_norm' op attribute 'normalized_shape' failed to satisfy constraint}}
module {
  func.func @rms_norm(%arg0: tensor<4x32x64xf32>, %arg1: tensor<64xf32>) -> tensor<4x32x64xf32> {
    %0 = "ttir.rms_norm"(%arg0, %arg1) <{epsilon = 9.99999997E-7 : f32, normalized_shape = "oops", operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<4x32x64xf32>, tensor<64xf32>) -> tensor<4x32x64xf32>
    return %0 : tensor<4x32x64xf32>
  }
}
