// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.ones' op requires attribute 'shape'}}
module {
  func.func @ones() -> tensor<32x64xf32> {
    %0 = "ttir.ones"() : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.ones' op attribute 'shape' failed to satisfy constraint}}
module {
  func.func @ones() -> tensor<32x64xf32> {
    %0 = "ttir.ones"() <{shape = "oops"}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
