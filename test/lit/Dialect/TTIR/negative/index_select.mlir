// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.index_select' op requires a single operand}}
module {
  func.func @index_select(%arg0: tensor<8x64xf32>, %arg1: tensor<8x64xf32>) -> tensor<8x32xf32> {
    %0 = "ttir.index_select"(%arg0, %arg1) <{begin = 0 : si32, dim = 1 : si32, length = 2 : si32, stride = 4 : si32}> : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.index_select' op requires attribute 'dim'}}
module {
  func.func @index_select(%arg0: tensor<8x64xf32>) -> tensor<8x32xf32> {
    %0 = "ttir.index_select"(%arg0) <{begin = 0 : si32, length = 2 : si32, stride = 4 : si32}> : (tensor<8x64xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.index_select' op attribute 'dim' failed to satisfy constraint}}
module {
  func.func @index_select(%arg0: tensor<8x64xf32>) -> tensor<8x32xf32> {
    %0 = "ttir.index_select"(%arg0) <{begin = 0 : si32, dim = "oops", length = 2 : si32, stride = 4 : si32}> : (tensor<8x64xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}
