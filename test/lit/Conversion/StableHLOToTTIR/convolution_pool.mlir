// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s
// Convolutions and pools become TTIR's NHWC conv2d/max_pool2d, the layout permuted to it and back.

module @jit_cnn {
  // CHECK-LABEL: func.func public @conv_nchw
  func.func public @conv_nchw(%x: tensor<1x3x16x16xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x8x8xf32> {
    // CHECK: "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 3, 1>}>
    // CHECK: "ttir.conv2d"
    // CHECK-SAME: dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>
    // CHECK-SAME: -> tensor<1x8x8x8xf32>
    // CHECK: "ttir.permute"({{.*}}) <{permutation = array<i64: 0, 3, 1, 2>}>
    %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x8x8xf32>
    return %0 : tensor<1x8x8x8xf32>
  }

  // CHECK-LABEL: func.func public @max_pool_nhwc
  func.func public @max_pool_nhwc(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    // CHECK-NOT: ttir.permute
    // CHECK: "ttir.max_pool2d"(%arg0)
    // CHECK-SAME: kernel = array<i32: 2, 2>
    // CHECK-SAME: stride = array<i32: 2, 2>
    %0 = "stablehlo.reduce_window"(%x, %ninf) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }) : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    return %0 : tensor<1x4x4x4xf32>
  }
}
