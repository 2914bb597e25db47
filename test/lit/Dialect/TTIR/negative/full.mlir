// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.full' op requires attribute 'shape'}}
module {
  func.func @full() -> tensor<32x64xf32> {
    %0 = "ttir.full"() <{fill_value = 3.500000e+00 : f32}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.full' op attribute 'shape' failed to satisfy constraint}}
module {
  func.func @full() -> tensor<32x64xf32> {
    %0 = "ttir.full"() <{fill_value = 3.500000e+00 : f32, shape = "oops"}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
