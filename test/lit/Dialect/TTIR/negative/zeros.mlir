// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.zeros' op requires attribute 'shape'}}
module {
  func.func @zeros() -> tensor<32x64xf32> {
    %0 = "ttir.zeros"() : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.zeros' op attribute 'shape' failed to satisfy constraint}}
module {
  func.func @zeros() -> tensor<32x64xf32> {
    %0 = "ttir.zeros"() <{shape = "oops"}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
