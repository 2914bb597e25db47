// RUN: ttmlir-opt --ttir-flatten-sliding-window %s | FileCheck %s
// RUN: ttmlir-opt --ttir-flatten-sliding-window %s | ttmlir-opt --ttir-flatten-sliding-window | FileCheck %s --check-prefix=AGAIN
// Sliding-window ops are rewritten to work on a (1, 1, N*H*W, C) input; channel-first convolutions go to NHWC first.

// CHECK-LABEL: func.func @conv_nchw
func.func @conv_nchw(%x: tensor<2x3x10x12xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<1x8x1x1xf32>) -> tensor<2x8x5x6xf32> {
  // CHECK: %[[X:.*]] = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 3, 1>}> {{.*}} -> tensor<2x10x12x3xf32>
  // CHECK: %[[B:.*]] = "ttir.permute"(%arg2) {{.*}} -> tensor<1x1x1x8xf32>
  // CHECK: %[[FLAT:.*]] = "ttir.reshape"(%[[X]]) {{.*}} -> tensor<1x1x240x3xf32>
  // CHECK: %[[CONV:.*]] = "ttir.conv2d"(%[[FLAT]], %arg1, %[[B]])
  // CHECK-SAME: flattened_compat_info = #ttir<flattened_compat batch_size = 2, input_height = 10, input_width = 12>
  // CHECK-NOT: channel_dim
  // CHECK-SAME: -> tensor<1x1x60x8xf32>
  // CHECK: %[[NHWC:.*]] = "ttir.reshape"(%[[CONV]]) {{.*}} -> tensor<2x5x6x8xf32>
  // CHECK: "ttir.permute"(%[[NHWC]]) <{permutation = array<i64: 0, 3, 1, 2>}> {{.*}} -> tensor<2x8x5x6xf32>
  %0 = "ttir.conv2d"(%x, %w, %b) <{dilation = 1 : i32, groups = 1 : i32, padding = 1 : i32, stride = 2 : i32, batch_dim = 0 : i64, channel_dim = 1 : i64, height_dim = 2 : i64, width_dim = 3 : i64}> : (tensor<2x3x10x12xf32>, tensor<8x3x3x3xf32>, tensor<1x8x1x1xf32>) -> tensor<2x8x5x6xf32>
  return %0 : tensor<2x8x5x6xf32>
}

// CHECK-LABEL: func.func @avg_pool
func.func @avg_pool(%x: tensor<1x9x9x4xf32>) -> tensor<1x5x5x4xf32> {
  // CHECK: "ttir.reshape"(%arg0) {{.*}} -> tensor<1x1x81x4xf32>
  // CHECK: "ttir.avg_pool2d"
  // CHECK-SAME: ceil_mode = true
  // CHECK-SAME: flattened_compat_info = #ttir<flattened_compat batch_size = 1, input_height = 9, input_width = 9>
  // CHECK-SAME: -> tensor<1x1x25x4xf32>
  // CHECK: "ttir.reshape"{{.*}} -> tensor<1x5x5x4xf32>
  %0 = "ttir.avg_pool2d"(%x) <{ceil_mode = true, count_include_pad = true, dilation = 1 : i32, kernel = 2 : i32, padding = 0 : i32, stride = 2 : i32}> : (tensor<1x9x9x4xf32>) -> tensor<1x5x5x4xf32>
  return %0 : tensor<1x5x5x4xf32>
}

// An op already flattened is left as it is.
// AGAIN-LABEL: func.func @avg_pool
// AGAIN-COUNT-2: "ttir.reshape"
// AGAIN-NOT: "ttir.reshape"
// AGAIN: return
