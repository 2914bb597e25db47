// RUN: ttmlir-opt --verify-diagnostics %s

func.func @all_gather(%arg0: tensor<1x1x32x128xf32>, %arg1: tensor<1x1x32x128xf32>) -> tensor<1x1x32x512xf32> {
  // expected-error @+1 {{'ttnn.all_gather' op requires a single operand}}
  %0 = "ttnn.all_gather"(%arg0, %arg1) <{all_gather_dim = 3 : si32, cluster_axis = 1 : ui32}> : (tensor<1x1x32x128xf32>, tensor<1x1x32x128xf32>) -> tensor<1x1x32x512xf32>
  return %0 : tensor<1x1x32x512xf32>
}
