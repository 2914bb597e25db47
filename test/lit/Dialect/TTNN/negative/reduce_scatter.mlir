// RUN: ttmlir-opt --verify-diagnostics %s

func.func @reduce_scatter(%arg0: tensor<1x1x32x128xf32>, %arg1: tensor<1x1x32x128xf32>) -> tensor<1x1x32x32xf32> {
  // expected-error @+1 {{'ttnn.reduce_scatter' op requires a single operand}}
  %0 = "ttnn.reduce_scatter"(%arg0, %arg1) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 3 : si32}> : (tensor<1x1x32x128xf32>, tensor<1x1x32x128xf32>) -> tensor<1x1x32x32xf32>
  return %0 : tensor<1x1x32x32xf32>
}
