// RUN: ttmlir-opt --canonicalize %s | FileCheck %s

// A 1x1x1 NDHWC conv3d with unit stride and no padding is a matmul of (N*D*H*W, C_in) rows by the transposed
// weight (a linear with a bias); any other conv3d stays.
// CHECK-LABEL: func.func @pointwise
// CHECK: "ttir.reshape"(%arg0) <{shape = [96 : i32, 8 : i32]}>
// CHECK: "ttir.reshape"(%arg1) <{shape = [16 : i32, 8 : i32]}>
// CHECK: "ttir.reshape"(%arg2) <{shape = [16 : i32]}>
// CHECK: "ttir.linear"
// CHECK-SAME: transpose_a = false, transpose_b = true
// CHECK-SAME: -> tensor<96x16xf32>
// CHECK: "ttir.reshape"
// CHECK-SAME: -> tensor<2x3x4x4x16xf32>
// CHECK-NOT: ttir.conv3d
// CHECK-LABEL: func.func @padded
// CHECK: "ttir.conv3d"
module {
  func.func @pointwise(%x: tensor<2x3x4x4x8xf32>, %w: tensor<16x8x1x1x1xf32>, %b: tensor<1x1x1x1x16xf32>) -> tensor<2x3x4x4x16xf32> {
    %0 = "ttir.conv3d"(%x, %w, %b) <{stride = 1 : i32, padding = 0 : i32, groups = 1 : i32}> : (tensor<2x3x4x4x8xf32>, tensor<16x8x1x1x1xf32>, tensor<1x1x1x1x16xf32>) -> tensor<2x3x4x4x16xf32>
    return %0 : tensor<2x3x4x4x16xf32>
  }
  func.func @padded(%x: tensor<2x3x4x4x8xf32>, %w: tensor<16x8x1x1x1xf32>) -> tensor<2x5x6x6x16xf32> {
    %0 = "ttir.conv3d"(%x, %w) <{stride = 1 : i32, padding = 1 : i32, groups = 1 : i32}> : (tensor<2x3x4x4x8xf32>, tensor<16x8x1x1x1xf32>) -> tensor<2x5x6x6x16xf32>
    return %0 : tensor<2x5x6x6x16xf32>
  }
}
