// REQUIRES: stablehlo
// RUN: ttmlir-opt --split-input-file --decouple-const-fanout %s | FileCheck %s
// A broadcast constant with several users gets a copy before each user but the last, in functions with a split
// argument only.

sdy.mesh @mesh = <["x"=2]>
// CHECK-LABEL: func.func @split
func.func @split(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: %[[C:.*]] = stablehlo.constant
  // CHECK-NEXT: %[[LAST:.*]] = stablehlo.broadcast_in_dim %[[C]]
  // CHECK-NEXT: %[[COPY:.*]] = stablehlo.broadcast_in_dim %[[C]]
  // CHECK-NEXT: stablehlo.maximum %arg0, %[[COPY]]
  // CHECK-NEXT: stablehlo.add %arg1, %[[LAST]]
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %1 = stablehlo.maximum %a, %0 : tensor<4x8xf32>
  %2 = stablehlo.add %b, %0 : tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
// CHECK-LABEL: func.func @replicated
// CHECK-COUNT-1: stablehlo.broadcast_in_dim
// CHECK-NOT: stablehlo.broadcast_in_dim
func.func @replicated(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %1 = stablehlo.maximum %a, %0 : tensor<4x8xf32>
  %2 = stablehlo.add %b, %0 : tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}
