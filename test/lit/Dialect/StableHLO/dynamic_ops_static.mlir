// REQUIRES: stablehlo
// RUN: ttmlir-opt --split-input-file --stablehlo-aggressive-simplification %s | FileCheck %s
// Dynamic ops whose shape operands are constants and whose results are static are their static forms.

// CHECK-LABEL: func.func @static_forms
func.func @static_forms(%x: tensor<3x1xf32>, %y: tensor<1x6xf32>, %p: tensor<f32>, %t: tensor<3x4x2xf32>,
                        %i: tensor<2x3x2xi64>) -> (tensor<3x2x2xf32>, tensor<6xf32>, tensor<5x8xf32>, tensor<2x3x2x2xf32>) {
  %dims = stablehlo.constant dense<[3, 2, 2]> : tensor<3xi64>
  // CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [0, 2] : (tensor<3x1xf32>) -> tensor<3x2x2xf32>
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %dims, dims = [0, 2] : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<3x2x2xf32>
  %shape = stablehlo.constant dense<[6]> : tensor<1xi64>
  // CHECK: stablehlo.reshape %{{.*}} : (tensor<1x6xf32>) -> tensor<6xf32>
  %1 = stablehlo.dynamic_reshape %y, %shape : (tensor<1x6xf32>, tensor<1xi64>) -> tensor<6xf32>
  %low = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %high = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %interior = stablehlo.constant dense<0> : tensor<2xi64>
  // CHECK: stablehlo.pad %{{.*}}, %{{.*}}, low = [1, 0], high = [1, 2], interior = [0, 0] : (tensor<3x1xf32>, tensor<f32>) -> tensor<5x8xf32>
  %2 = stablehlo.dynamic_pad %x, %p, %low, %high, %interior : (tensor<3x1xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<5x8xf32>
  %sizes = stablehlo.constant dense<[1, 2, 2]> : tensor<3xi64>
  // CHECK: "stablehlo.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 2>}>
  %3 = "stablehlo.dynamic_gather"(%t, %i, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false} : (tensor<3x4x2xf32>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x2x2xf32>
  // CHECK-NOT: stablehlo.dynamic_
  return %0, %1, %2, %3 : tensor<3x2x2xf32>, tensor<6xf32>, tensor<5x8xf32>, tensor<2x3x2x2xf32>
}

// -----

// paddings computed at run time: the op stays (a static result type fixes a reshape's shape, not a pad's edges)
// CHECK-LABEL: func.func @computed_padding
func.func @computed_padding(%x: tensor<3x1xf32>, %p: tensor<f32>, %low: tensor<2xi64>) -> tensor<5x3xf32> {
  %high = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %interior = stablehlo.constant dense<0> : tensor<2xi64>
  // CHECK: stablehlo.dynamic_pad
  %0 = stablehlo.dynamic_pad %x, %p, %low, %high, %interior : (tensor<3x1xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
