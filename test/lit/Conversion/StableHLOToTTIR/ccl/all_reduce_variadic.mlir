// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s
// An all_reduce of several operands reduces each one alone. With no mesh declared, the mesh is the one the
// replica groups are lines of: groups [[0, 2], [1, 3]] are the columns of a 2x2 mesh (axis 0).
// CHECK-LABEL: func.func @two_values
// CHECK: "ttir.all_reduce"(%arg0) <{cluster_axis = 0 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: "ttir.all_reduce"(%arg1) <{cluster_axis = 0 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @two_values(%a: tensor<4xf32>, %b: tensor<2x3xf32>) -> (tensor<4xf32>, tensor<2x3xf32>) {
  %0:2 = "stablehlo.all_reduce"(%a, %b) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4xf32>, tensor<2x3xf32>) -> (tensor<4xf32>, tensor<2x3xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<2x3xf32>
}
