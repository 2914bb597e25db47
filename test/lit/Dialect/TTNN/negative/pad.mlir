// RUN: ttmlir-opt --verify-diagnostics %s

func.func @pad(%arg0: tensor<1x30x30xf32>, %arg1: tensor<1x30x30xf32>) -> tensor<1x32x32xf32> {
  // expected-error @+1 {{'ttnn.pad' op requires a single operand}}
  %0 = "ttnn.pad"(%arg0, %arg1) <{padding = array<i32: 0, 0, 1, 1, 2, 0>, value = 0.000000e+00 : f32}> : (tensor<1x30x30xf32>, tensor<1x30x30xf32>) -> tensor<1x32x32xf32>
  return %0 : tensor<1x32x32xf32>
}
