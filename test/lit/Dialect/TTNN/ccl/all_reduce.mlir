// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @all_reduce
// CHECK: %{{[0-9]+}} = "ttnn.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
module {
  func.func @all_reduce(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32> {
    %0 = "ttnn.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}
