// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.reshape' op requires a single operand}}
module {
  func.func @reshape(%arg0: tensor<4x32x64xf32>, %arg1: tensor<4x32x64xf32>) -> tensor<128x64xf32> {
    %0 = "ttir.reshape"(%arg0, %arg1) <{shape = [128 : i32, 64 : i32]}> : (tensor<4x32x64xf32>, tensor<4x32x64xf32>) -> tensor<128x64xf32>
    return %0 : tensor<128x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.reshape' op requires attribute 'shape'}}
module {
  func.func @reshape(%arg0: tensor<4x32x64xf32>) -> tensor<128x64xf32> {
    %0 = "ttir.reshape"(%arg0) : (tensor<4x32x64xf32>) -> tensor<128x64xf32>
    return %0 : tensor<128x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.reshape' op attribute 'shape' failed to satisfy constraint}}
module {
  func.func @reshape(%arg0: tensor<4x32x64xf32>) -> tensor<128x64xf32> {
    %0 = "ttir.reshape"(%arg0) <{shape = "oops"}> : (tensor<4x32x64xf32>) -> tensor<128x64xf32>
    return %0 : tensor<128x64xf32>
  }
}
