// REQUIRES: stablehlo
// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// Bad StableHLO is a located error in the StableHLO project's words.

func.func @bad_broadcast(%arg0: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op size of operand dimension 0 (3) is not equal to 1 or size of result dimension 1 (4)}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----
func.func @bad_reshape(%arg0: tensor<3x4xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'stablehlo.reshape' op number of output elements (5) doesn't match expected number of elements (12)}}
  %0 = stablehlo.reshape %arg0 : (tensor<3x4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----
func.func @bad_dot(%arg0: tensor<2x3xf32>, %arg1: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op contracting dimension sizes must match for lhs/rhs}}
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----
func.func @bad_add(%arg0: tensor<2x3xf32>, %arg1: tensor<3x2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.add' op requires compatible types for all operands and results}}
  %0 = stablehlo.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----
func.func @bad_transpose(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----
func.func @bad_compare(%arg0: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{expected one of EQ, NE, GE, GT, LE, LT for comparison_direction, got GREATER}}
  %0 = stablehlo.compare GREATER, %arg0, %arg0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}
