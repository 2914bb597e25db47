// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.index' op requires a single operand}}
module {
  func.func @index(%arg0: tensor<8x64xf32>, %arg1: tensor<8x64xf32>) -> tensor<8x16xf32> {
    %0 = "ttir.index"(%arg0, %arg1) <{begin = 0 : i32, dim = 1 : i32, end = 32 : i32, step = 2 : i32}> : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.index' op requires attribute 'dim'}}
module {
  func.func @index(%arg0: tensor<8x64xf32>) -> tensor<8x16xf32> {
    %0 = "ttir.index"(%arg0) <{begin = 0 : i32, end = 32 : i32, step = 2 : i32}> : (tensor<8x64xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.index' op attribute 'dim' failed to satisfy constraint}}
module {
  func.func @index(%arg0: tensor<8x64xf32>) -> tensor<8x16xf32> {
    %0 = "ttir.index"(%arg0) <{begin = 0 : i32, dim = "oops", end = 32 : i32, step = 2 : i32}> : (tensor<8x64xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
