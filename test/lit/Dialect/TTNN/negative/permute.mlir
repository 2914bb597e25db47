// RUN: ttmlir-opt --verify-diagnostics %s

func.func @permute(%arg0: tensor<1x4x32x64xf32>, %arg1: tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32> {
  // expected-error @+1 {{'ttnn.permute' op requires a single operand}}
  %0 = "ttnn.permute"(%arg0, %arg1) <{pad_value = 0.000000e+00 : f32, permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x4x32x64xf32>, tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32>
  return %0 : tensor<1x32x4x64xf32>
}
