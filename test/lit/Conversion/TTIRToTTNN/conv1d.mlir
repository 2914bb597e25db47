// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s

// ttir.conv1d stays a conv1d in TTNN: the (1, 1, O) bias becomes conv2d's (1, 1, 1, O), the result is conv2d's
// flattened (1, 1, N * L_out, O), reshaped back to (N, L_out, O).
// CHECK-LABEL: func.func @nlc
// CHECK: "ttnn.reshape"(%arg2) <{shape = [1 : i32, 1 : i32, 1 : i32, 6 : i32]}>
// CHECK: %[[CONV:.*]] = "ttnn.conv1d"(%arg0, %arg1, %{{[0-9]+}}, %{{[0-9]+}})
// CHECK-SAME: batch_size = 2 : i32
// CHECK-SAME: dilation = 1 : i32, groups = 2 : i32, in_channels = 8 : i32, input_length = 20 : i32, kernel_size = 3 : i32, out_channels = 6 : i32, padding = array<i32: 1, 2>, stride = 2 : i32
// CHECK-SAME: -> tensor<1x1x22x6xf32
// CHECK: "ttnn.reshape"(%[[CONV]]) <{shape = [2 : i32, 11 : i32, 6 : i32]}>
func.func @nlc(%x: tensor<2x20x8xf32>, %w: tensor<6x4x3xf32>, %b: tensor<1x1x6xf32>) -> tensor<2x11x6xf32> {
  %0 = "ttir.conv1d"(%x, %w, %b) <{stride = 2 : i32, padding = array<i32: 1, 2>, dilation = 1 : i32, groups = 2 : i32}> : (tensor<2x20x8xf32>, tensor<6x4x3xf32>, tensor<1x1x6xf32>) -> tensor<2x11x6xf32>
  return %0 : tensor<2x11x6xf32>
}

// A channels-first (N, C, L) input is permuted to (N, L, C) first, and the result back.
// CHECK-LABEL: func.func @ncl
// CHECK: %[[IN:.*]] = "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 2, 1>}>
// CHECK: %[[CONV:.*]] = "ttnn.conv1d"(%[[IN]], %arg1, %{{[0-9]+}})
// CHECK-SAME: dilation = 2 : i32
// CHECK-SAME: padding = array<i32: 0, 0>
// CHECK: %[[FLAT:.*]] = "ttnn.reshape"(%[[CONV]]) <{shape = [1 : i32, 13 : i32, 5 : i32]}>
// CHECK: "ttnn.permute"(%[[FLAT]]) <{permutation = array<i64: 0, 2, 1>}>
func.func @ncl(%x: tensor<1x4x17xf32>, %w: tensor<5x4x3xf32>) -> tensor<1x5x13xf32> {
  %0 = "ttir.conv1d"(%x, %w) <{stride = array<i32: 1>, padding = 0 : i32, dilation = 2 : i32, groups = 1 : i32, length_dim = 2 : i64, channel_dim = 1 : i64}> : (tensor<1x4x17xf32>, tensor<5x4x3xf32>) -> tensor<1x5x13xf32>
  return %0 : tensor<1x5x13xf32>
}
