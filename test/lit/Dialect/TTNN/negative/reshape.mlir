// RUN: ttmlir-opt --verify-diagnostics %s

func.func @reshape(%arg0: tensor<4x32x64xf32>, %arg1: tensor<4x32x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{'ttnn.reshape' op requires a single operand}}
  %0 = "ttnn.reshape"(%arg0, %arg1) <{shape = [128 : i32, 64 : i32]}> : (tensor<4x32x64xf32>, tensor<4x32x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
