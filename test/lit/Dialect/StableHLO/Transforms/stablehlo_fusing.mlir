// REQUIRES: stablehlo
// RUN: ttmlir-opt --split-input-file --stablehlo-fusing --decompose-custom-call-tuples --partially-convert-sdy-to-stablehlo %s | FileCheck %s

// CHECK-LABEL: func.func @repeats
func.func @repeats(%x: tensor<2x4xf32>, %u: tensor<2x1xf32>) -> (tensor<2x3x4xf32>, tensor<3x2x4xf32>, tensor<2x5xf32>, tensor<6x4xf32>) {
  // concatenate-then-reshape that stacks copies along a new dim
  // CHECK: stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : (tensor<2x4xf32>) -> tensor<2x3x4xf32>
  %0 = stablehlo.concatenate %x, %x, %x, dim = 1 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x12xf32>
  %1 = stablehlo.reshape %0 : (tensor<2x12xf32>) -> tensor<2x3x4xf32>
  // reshape-then-concatenate along the inserted unit dim
  // CHECK: stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<2x4xf32>) -> tensor<3x2x4xf32>
  %2 = stablehlo.reshape %x : (tensor<2x4xf32>) -> tensor<1x2x4xf32>
  %3 = stablehlo.concatenate %2, %2, %2, dim = 0 : (tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<3x2x4xf32>
  // copies of a size-1 dim
  // CHECK: stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x5xf32>
  %4 = stablehlo.concatenate %u, %u, %u, %u, %u, dim = 1 : (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  // rows repeated are not one broadcast: kept
  // CHECK: stablehlo.concatenate %arg0, %arg0, %arg0, dim = 0
  %5 = stablehlo.concatenate %x, %x, %x, dim = 0 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<6x4xf32>
  // CHECK-NOT: stablehlo.reshape
  return %1, %3, %4, %5 : tensor<2x3x4xf32>, tensor<3x2x4xf32>, tensor<2x5xf32>, tensor<6x4xf32>
}

// -----

// CHECK-LABEL: func.func @gather_and_tuple
func.func @gather_and_tuple(%t: tensor<16x8xf32>, %i: tensor<5xi64>) -> (tensor<5x8xf32>, tensor<5xi64>, tensor<2xf32>) {
  // CHECK-NOT: stablehlo.reshape
  // CHECK: "stablehlo.gather"(%arg0, %arg1)
  %0 = stablehlo.reshape %i : (tensor<5xi64>) -> tensor<5x1xi64>
  %1 = "stablehlo.gather"(%t, %0) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false}> : (tensor<16x8xf32>, tensor<5x1xi64>) -> tensor<5x8xf32>
  // CHECK-NOT: stablehlo.tuple
  %2 = stablehlo.tuple %1, %i : tuple<tensor<5x8xf32>, tensor<5xi64>>
  %3 = stablehlo.get_tuple_element %2[1] : (tuple<tensor<5x8xf32>, tensor<5xi64>>) -> tensor<5xi64>
  // CHECK: %[[C:.*]] = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %4 = sdy.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: return %{{.*}}, %arg1, %[[C]]
  return %1, %3, %4 : tensor<5x8xf32>, tensor<5xi64>, tensor<2xf32>
}
