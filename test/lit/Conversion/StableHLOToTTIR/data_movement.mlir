// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s
// Broadcasts, reshapes, transposes, concatenation, slices, padding, reversal, iota and constants.

module @jit_data_movement {
  // CHECK-LABEL: func.func public @broadcast
  func.func public @broadcast(%a: tensor<16xf32>, %b: tensor<3x1xf32>) -> (tensor<4x16xf32>, tensor<2x3x5xf32>) {
    // CHECK: "ttir.reshape"(%arg0) <{shape = [1 : i32, 16 : i32]}> : (tensor<16xf32>) -> tensor<1x16xf32>
    // CHECK: "ttir.broadcast"({{.*}}) <{broadcast_dimensions = array<i64: 4, 1>}> : (tensor<1x16xf32>) -> tensor<4x16xf32>
    %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
    // CHECK: "ttir.reshape"(%arg1) <{shape = [1 : i32, 3 : i32, 1 : i32]}>
    // CHECK: "ttir.broadcast"({{.*}}) <{broadcast_dimensions = array<i64: 2, 1, 5>}>
    %1 = stablehlo.broadcast_in_dim %b, dims = [1, 2] : (tensor<3x1xf32>) -> tensor<2x3x5xf32>
    return %0, %1 : tensor<4x16xf32>, tensor<2x3x5xf32>
  }

  // CHECK-LABEL: func.func public @shapes
  func.func public @shapes(%a: tensor<4x6xf32>) -> (tensor<6x4xf32>, tensor<24xf32>, tensor<8x6xf32>, tensor<2x3xf32>) {
    // CHECK: "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0>}>
    %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
    // CHECK: "ttir.reshape"(%arg0) <{shape = [24 : i32]}>
    %1 = stablehlo.reshape %a : (tensor<4x6xf32>) -> tensor<24xf32>
    // CHECK: "ttir.concat"(%arg0, %arg0) <{dim = 0 : si32}>
    %2 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    // CHECK: "ttir.slice_static"(%arg0) <{begins = [1 : i32, 0 : i32], ends = [3 : i32, 6 : i32], step = [1 : i32, 2 : i32]}>
    %3 = stablehlo.slice %a [1:3, 0:6:2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
    return %0, %1, %2, %3 : tensor<6x4xf32>, tensor<24xf32>, tensor<8x6xf32>, tensor<2x3xf32>
  }

  // CHECK-LABEL: func.func public @pad_reverse_iota
  func.func public @pad_reverse_iota(%a: tensor<4x6xf32>) -> (tensor<5x8xf32>, tensor<4x6xf32>, tensor<4x6xi32>) {
    %v = stablehlo.constant dense<1.5> : tensor<f32>
    // CHECK: "ttir.pad"(%arg0) <{padding = array<i32: 1, 0, 0, 2>, value = 1.500000e+00 : f32}>
    %0 = stablehlo.pad %a, %v, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<5x8xf32>
    // CHECK: "ttir.reverse"(%arg0) <{dimensions = array<i64: 0>}>
    %1 = stablehlo.reverse %a, dims = [0] : tensor<4x6xf32>
    // CHECK: "ttir.arange"() <{arange_dimension = 1 : i64, end = 6 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<4x6xi32>
    %2 = stablehlo.iota dim = 1 : tensor<4x6xi32>
    return %0, %1, %2 : tensor<5x8xf32>, tensor<4x6xf32>, tensor<4x6xi32>
  }
}
