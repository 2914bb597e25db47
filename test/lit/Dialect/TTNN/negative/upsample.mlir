// RUN: ttmlir-opt --verify-diagnostics %s

func.func @upsample(%arg0: tensor<1x16x16x32xf32>, %arg1: tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32> {
  // expected-error @+1 {{'ttnn.upsample' op requires a single operand}}
  %0 = "ttnn.upsample"(%arg0, %arg1) <{mode = "nearest", scale_factor = 2 : si32}> : (tensor<1x16x16x32xf32>, tensor<1x16x16x32xf32>) -> tensor<1x32x32x32xf32>
  return %0 : tensor<1x32x32x32xf32>
}
