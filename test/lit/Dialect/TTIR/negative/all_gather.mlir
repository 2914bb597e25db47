// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.all_gather' op requires a single operand}}
module {
  func.func @all_gather(%arg0: tensor<1x1x32x128xf32>, %arg1: tensor<1x1x32x128xf32>) -> tensor<1x1x32x512xf32> {
    %0 = "ttir.all_gather"(%arg0, %arg1) <{all_gather_dim = 3 : si32, cluster_axis = 1 : ui32}> : (tensor<1x1x32x128xf32>, tensor<1x1x32x128xf32>) -> tensor<1x1x32x512xf32>
    return %0 : tensor<1x1x32x512xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.all_gather' op requires attribute 'all_gather_dim'}}
module {
  func.func @all_gather(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x512xf32> {
    %0 = "ttir.all_gather"(%arg0) <{cluster_axis = 1 : ui32}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x512xf32>
    return %0 : tensor<1x1x32x512xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.all_gather' op attribute 'all_gather_dim' failed to satisfy constraint}}
module {
  func.func @all_gather(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x512xf32> {
    %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = "oops", cluster_axis = 1 : ui32}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x512xf32>
    return %0 : tensor<1x1x32x512xf32>
  }
}
