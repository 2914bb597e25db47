// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.all_reduce' op requires a single operand}}
module {
  func.func @all_reduce(%arg0: tensor<1x1x32x128xf32>, %arg1: tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttir.all_reduce"(%arg0, %arg1) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x32x128xf32>, tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.all_reduce' op requires attribute 'reduce_type'}}
module {
  func.func @all_reduce(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttir.all_reduce"(%arg0) <{cluster_axis = 1 : ui32}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.all_reduce' op attribute 'reduce_type' failed to satisfy constraint}}
module {
  func.func @all_reduce(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttir.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = "oops"}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
