// RUN: ttmlir-opt --canonicalize %s | FileCheck %s

// Folds: an op that changes nothing is its input; chains of reshapes, permutes and repeats become one op.
// CHECK-LABEL: func.func @identities
// CHECK-NOT: ttir.
// CHECK: return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0
func.func @identities(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "ttir.reshape"(%arg0) <{shape = [2 : i32, 3 : i32]}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "ttir.typecast"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 1>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "ttir.repeat"(%arg0) <{repeat_dimensions = array<i64: 1, 1>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32], ends = [2 : i32, 3 : i32], step = [1 : i32, 1 : i32]}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %6 = "ttir.permute"(%5) <{permutation = array<i64: 1, 0>}> : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @chains
// CHECK: %[[R:.*]] = "ttir.reshape"(%arg0) <{shape = [3 : i32, 4 : i32]}> : (tensor<2x6xf32>) -> tensor<3x4xf32>
// CHECK: "ttir.permute"(%[[R]]) <{permutation = array<i64: 1, 0>}>
// CHECK: "ttir.repeat"(%[[R]]) <{repeat_dimensions = array<i64: 4, 6>}>
// CHECK-NOT: ttir.reshape
func.func @chains(%arg0: tensor<2x6xf32>) -> (tensor<4x3xf32>, tensor<12x24xf32>) {
  %0 = "ttir.reshape"(%arg0) <{shape = [12 : i32]}> : (tensor<2x6xf32>) -> tensor<12xf32>
  %1 = "ttir.reshape"(%0) <{shape = [3 : i32, 4 : i32]}> : (tensor<12xf32>) -> tensor<3x4xf32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 1, 0>}> : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %3 = "ttir.permute"(%2) <{permutation = array<i64: 1, 0>}> : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %4 = "ttir.permute"(%3) <{permutation = array<i64: 1, 0>}> : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %5 = "ttir.repeat"(%1) <{repeat_dimensions = array<i64: 2, 3>}> : (tensor<3x4xf32>) -> tensor<6x12xf32>
  %6 = "ttir.repeat"(%5) <{repeat_dimensions = array<i64: 2, 2>}> : (tensor<6x12xf32>) -> tensor<12x24xf32>
  return %4, %6 : tensor<4x3xf32>, tensor<12x24xf32>
}

// A splat constant is a full op (TTIR and TTNN); a constant with distinct elements stays.
// CHECK-LABEL: func.func @splats
// CHECK: "ttir.full"() <{fill_value = 0xFF800000 : f32, shape = array<i32: 2, 3>}> : () -> tensor<2x3xf32>
// CHECK: "ttir.full"() <{fill_value = 7 : i32, shape = array<i32: 4>}> : () -> tensor<4xui32>
// CHECK: "ttir.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}>
func.func @splats() -> (tensor<2x3xf32>, tensor<4xui32>, tensor<2xi32>) {
  %0 = "ttir.constant"() <{value = dense<0xFF800000> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %1 = "ttir.constant"() <{value = dense<7> : tensor<4xui32>}> : () -> tensor<4xui32>
  %2 = "ttir.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<4xui32>, tensor<2xi32>
}

// clamp_tensor between constants is clamp_scalar: f32 bounds for float data, saturated i32 ones for integers.
// CHECK-LABEL: func.func @clamp_by_constants
// CHECK: "ttir.clamp_scalar"(%arg0) <{max = 6.000000e+00 : f32, min = -1.000000e+00 : f32}>
// CHECK: "ttir.clamp_scalar"(%arg1) <{max = 2147483647 : i32, min = -3 : i32}>
func.func @clamp_by_constants(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xi64>) -> (tensor<4x8xf32>, tensor<4x8xi64>) {
  %0 = "ttir.constant"() <{value = dense<-1.0> : tensor<4x8xf32>}> : () -> tensor<4x8xf32>
  %1 = "ttir.full"() <{fill_value = 6.0 : f32, shape = array<i32: 4, 8>}> : () -> tensor<4x8xf32>
  %2 = "ttir.clamp_tensor"(%arg0, %0, %1) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = "ttir.constant"() <{value = dense<-3> : tensor<4x8xi64>}> : () -> tensor<4x8xi64>
  %4 = "ttir.constant"() <{value = dense<9223372036854775807> : tensor<4x8xi64>}> : () -> tensor<4x8xi64>
  %5 = "ttir.clamp_tensor"(%arg1, %3, %4) : (tensor<4x8xi64>, tensor<4x8xi64>, tensor<4x8xi64>) -> tensor<4x8xi64>
  return %2, %5 : tensor<4x8xf32>, tensor<4x8xi64>
}

// Bounds known at run time of another shape than the result are broadcast to it (a scalar reshaped first).
// CHECK-LABEL: func.func @clamp_bounds_broadcast
// CHECK: %[[LOW:.*]] = "ttir.reshape"(%arg1) <{shape = [1 : i32, 1 : i32]}>
// CHECK: %[[WIDE:.*]] = "ttir.broadcast"(%[[LOW]]) <{broadcast_dimensions = array<i64: 4, 8>}>
// CHECK: "ttir.clamp_tensor"(%arg0, %[[WIDE]], %arg2)
func.func @clamp_bounds_broadcast(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>, %arg2: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "ttir.clamp_tensor"(%arg0, %arg1, %arg2) : (tensor<4x8xf32>, tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Requantizing to the same quantized type changes nothing.
// CHECK-LABEL: func.func @identity_requantize
// CHECK-NOT: "ttir.requantize"
// CHECK: return %arg0
func.func @identity_requantize(%arg0: tensor<4x8x!quant.uniform<i32:f32, 0.5:3>>) -> tensor<4x8x!quant.uniform<i32:f32, 0.5:3>> {
  %0 = "ttir.requantize"(%arg0) : (tensor<4x8x!quant.uniform<i32:f32, 0.5:3>>) -> tensor<4x8x!quant.uniform<i32:f32, 0.5:3>>
  return %0 : tensor<4x8x!quant.uniform<i32:f32, 0.5:3>>
}

// A concat of one input and empty ones is that input; with two non-empty inputs the empty ones are dropped.
// CHECK-LABEL: func.func @concat_of_empties
// CHECK: %[[C:.*]] = "ttir.concat"(%arg1, %arg1)
// CHECK-NOT: ttir.concat
// CHECK: return %arg1, %[[C]]
func.func @concat_of_empties(%arg0: tensor<1x0x64xf32>, %arg1: tensor<1x8x64xf32>) -> (tensor<1x8x64xf32>, tensor<1x16x64xf32>) {
  %0 = "ttir.concat"(%arg0, %arg1, %arg0) <{dim = 1 : si32}> : (tensor<1x0x64xf32>, tensor<1x8x64xf32>, tensor<1x0x64xf32>) -> tensor<1x8x64xf32>
  %1 = "ttir.concat"(%arg1, %arg0, %arg1) <{dim = -2 : si32}> : (tensor<1x8x64xf32>, tensor<1x0x64xf32>, tensor<1x8x64xf32>) -> tensor<1x16x64xf32>
  return %0, %1 : tensor<1x8x64xf32>, tensor<1x16x64xf32>
}
