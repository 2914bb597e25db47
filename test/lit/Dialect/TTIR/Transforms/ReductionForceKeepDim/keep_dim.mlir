// RUN: ttmlir-opt --ttir-reduction-force-keep-dim %s | FileCheck %s

// A reduction dropping its dims keeps them as ones and a reshape drops them; over all dims (no dim_arg) too.
// CHECK-LABEL: func.func @drop
// CHECK: %[[S:.*]] = "ttir.argmax"(%arg0) <{dim_arg = [-1 : i32], keep_dim = true}> : (tensor<4x6x8xf32>) -> tensor<4x6x1xi32>
// CHECK: "ttir.reshape"(%[[S]]) <{shape = [4 : i32, 6 : i32]}> : (tensor<4x6x1xi32>) -> tensor<4x6xi32>
// CHECK: %[[P:.*]] = "ttir.prod"(%arg0) <{keep_dim = true}> : (tensor<4x6x8xf32>) -> tensor<1x1x1xf32>
// CHECK: "ttir.reshape"(%[[P]]) <{shape = []}> : (tensor<1x1x1xf32>) -> tensor<f32>
func.func @drop(%arg0: tensor<4x6x8xf32>) -> (tensor<4x6xi32>, tensor<f32>) {
  %0 = "ttir.argmax"(%arg0) <{dim_arg = [-1 : i32], keep_dim = false}> : (tensor<4x6x8xf32>) -> tensor<4x6xi32>
  %1 = "ttir.prod"(%arg0) <{keep_dim = false}> : (tensor<4x6x8xf32>) -> tensor<f32>
  return %0, %1 : tensor<4x6xi32>, tensor<f32>
}
