// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.arange' op requires attribute 'start'}}
module {
  func.func @arange() -> tensor<16xf32> {
    %0 = "ttir.arange"() <{arange_dimension = 0 : i64, end = 32 : si64, step = 2 : si64}> : () -> tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.arange' op attribute 'start' failed to satisfy constraint}}
module {
  func.func @arange() -> tensor<16xf32> {
    %0 = "ttir.arange"() <{arange_dimension = 0 : i64, end = 32 : si64, start = "oops", step = 2 : si64}> : () -> tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}
