// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.repeat_interleave' op requires a single operand}}
module {
  func.func @repeat_interleave(%arg0: tensor<4x32xf32>, %arg1: tensor<4x32xf32>) -> tensor<12x32xf32> {
    %0 = "ttir.repeat_interleave"(%arg0, %arg1) <{dim = 0 : si32, repeats = 3 : ui32}> : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<12x32xf32>
    return %0 : tensor<12x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.repeat_interleave' op requires attribute 'repeats'}}
module {
  func.func @repeat_interleave(%arg0: tensor<4x32xf32>) -> tensor<12x32xf32> {
    %0 = "ttir.repeat_interleave"(%arg0) <{dim = 0 : si32}> : (tensor<4x32xf32>) -> tensor<12x32xf32>
    return %0 : tensor<12x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.repeat_interleave' op attribute 'repeats' failed to satisfy constraint}}
module {
  func.func @repeat_interleave(%arg0: tensor<4x32xf32>) -> tensor<12x32xf32> {
    %0 = "ttir.repeat_interleave"(%arg0) <{dim = 0 : si32, repeats = "oops"}> : (tensor<4x32xf32>) -> tensor<12x32xf32>
    return %0 : tensor<12x32xf32>
  }
}
