// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.rand' op requires attribute 'size'}}
module {
  func.func @rand() -> tensor<32x64xf32> {
    %0 = "ttir.rand"() <{dtype = f32, high = 1.000000e+00 : f32, low = 0.000000e+00 : f32, seed = 0 : ui32}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.rand' op attribute 'size' failed to satisfy constraint}}
module {
  func.func @rand() -> tensor<32x64xf32> {
    %0 = "ttir.rand"() <{dtype = f32, high = 1.000000e+00 : f32, low = 0.000000e+00 : f32, seed = 0 : ui32, size = "oops"}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
