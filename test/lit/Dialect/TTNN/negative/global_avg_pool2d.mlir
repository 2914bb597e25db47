// RUN: ttmlir-opt --verify-diagnostics %s

func.func @global_avg_pool2d(%arg0: tensor<1x7x7x512xf32>, %arg1: tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32> {
  // expected-error @+1 {{'ttnn.global_avg_pool2d' op requires a single operand}}
  %0 = "ttnn.global_avg_pool2d"(%arg0, %arg1) : (tensor<1x7x7x512xf32>, tensor<1x7x7x512xf32>) -> tensor<1x1x1x512xf32>
  return %0 : tensor<1x1x1x512xf32>
}
