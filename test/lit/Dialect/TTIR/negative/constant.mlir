// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.constant' op requires attribute 'value'}}
module {
  func.func @constant() -> tensor<2x2xf32> {
    %0 = "ttir.constant"() : () -> tensor<2x2xf32>
    return %0 : tensor<2x2xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.constant' op attribute 'value' failed to satisfy constraint}}
module {
  func.func @constant() -> tensor<2x2xf32> {
    %0 = "ttir.constant"() <{value = "oops"}> : () -> tensor<2x2xf32>
    return %0 : tensor<2x2xf32>
  }
}
