// RUN: ttmlir-opt --verify-diagnostics %s

func.func @repeat(%arg0: tensor<1x32x64xf32>, %arg1: tensor<1x32x64xf32>) -> tensor<4x32x128xf32> {
  // expected-error @+1 {{'ttnn.repeat' op requires a single operand}}
  %0 = "ttnn.repeat"(%arg0, %arg1) <{repeat_dims = #ttnn.shape<4x1x2>}> : (tensor<1x32x64xf32>, tensor<1x32x64xf32>) -> tensor<4x32x128xf32>
  return %0 : tensor<4x32x128xf32>
}
