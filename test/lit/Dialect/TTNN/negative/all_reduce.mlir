// RUN: ttmlir-opt --verify-diagnostics %s

func.func @all_reduce(%arg0: tensor<1x1x32x128xf32>, %arg1: tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32> {
  // expected-error @+1 {{'ttnn.all_reduce' op requires a single operand}}
  %0 = "ttnn.all_reduce"(%arg0, %arg1) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x32x128xf32>, tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
  return %0 : tensor<1x1x32x128xf32>
}
