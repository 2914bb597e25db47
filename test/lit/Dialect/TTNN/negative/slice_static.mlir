// RUN: ttmlir-opt --verify-diagnostics %s

func.func @slice_static(%arg0: tensor<8x64xf32>, %arg1: tensor<8x64xf32>) -> tensor<4x48xf32> {
  // expected-error @+1 {{'ttnn.slice_static' op requires a single operand}}
  %0 = "ttnn.slice_static"(%arg0, %arg1) <{begins = [0 : i32, 16 : i32], ends = [8 : i32, 64 : i32], step = [2 : i32, 1 : i32]}> : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<4x48xf32>
  return %0 : tensor<4x48xf32>
}
