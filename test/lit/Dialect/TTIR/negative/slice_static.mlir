// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.slice_static' op requires a single operand}}
module {
  func.func @slice_static(%arg0: tensor<8x64xf32>, %arg1: tensor<8x64xf32>) -> tensor<4x48xf32> {
    %0 = "ttir.slice_static"(%arg0, %arg1) <{begins = [0 : i32, 16 : i32], ends = [8 : i32, 64 : i32], step = [2 : i32, 1 : i32]}> : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<4x48xf32>
    return %0 : tensor<4x48xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.slice_static' op requires attribute 'begins'}}
module {
  func.func @slice_static(%arg0: tensor<8x64xf32>) -> tensor<4x48xf32> {
    %0 = "ttir.slice_static"(%arg0) <{ends = [8 : i32, 64 : i32], step = [2 : i32, 1 : i32]}> : (tensor<8x64xf32>) -> tensor<4x48xf32>
    return %0 : tensor<4x48xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.slice_static' op attribute 'begins' failed to satisfy constraint}}
module {
  func.func @slice_static(%arg0: tensor<8x64xf32>) -> tensor<4x48xf32> {
    %0 = "ttir.slice_static"(%arg0) <{begins = "oops", ends = [8 : i32, 64 : i32], step = [2 : i32, 1 : i32]}> : (tensor<8x64xf32>) -> tensor<4x48xf32>
    return %0 : tensor<4x48xf32>
  }
}
