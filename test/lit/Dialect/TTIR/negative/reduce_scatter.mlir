// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.reduce_scatter' op requires a single operand}}
module {
  func.func @reduce_scatter(%arg0: tensor<1x1x32x128xf32>, %arg1: tensor<1x1x32x128xf32>) -> tensor<1x1x32x32xf32> {
    %0 = "ttir.reduce_scatter"(%arg0, %arg1) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 3 : si32}> : (tensor<1x1x32x128xf32>, tensor<1x1x32x128xf32>) -> tensor<1x1x32x32xf32>
    return %0 : tensor<1x1x32x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.reduce_scatter' op requires attribute 'reduce_type'}}
module {
  func.func @reduce_scatter(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x32xf32> {
    %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, scatter_dim = 3 : si32}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x32xf32>
    return %0 : tensor<1x1x32x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.reduce_scatter' op attribute 'reduce_type' failed to satisfy constraint}}
module {
  func.func @reduce_scatter(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x32xf32> {
    %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = "oops", scatter_dim = 3 : si32}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x32xf32>
    return %0 : tensor<1x1x32x32xf32>
  }
}
