// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @reduce_scatter
// CHECK: %{{[0-9]+}} = "ttnn.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 3 : si32}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x32xf32>
module {
  func.func @reduce_scatter(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x32xf32> {
    %0 = "ttnn.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 3 : si32}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x32xf32>
    return %0 : tensor<1x1x32x32xf32>
  }
}
