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

  // A convolution of an input spread by zeros (lhs_dilate) is a transposed one, whose kernel slides flipped: the
  // kernel, put in [in, out/groups, kh, kw] order (each group's kernels stacked along the input), is reversed last.
  // CHECK-LABEL: func.func @grouped_transposed
  // CHECK: "ttir.permute"(%arg1) <{permutation = array<i64: 3, 2, 0, 1>}> : (tensor<3x3x8x2xf32>) -> tensor<2x8x3x3xf32>
  // CHECK: "ttir.reshape"{{.*}} -> tensor<2x4x2x3x3xf32>
  // CHECK: "ttir.permute"{{.*}} -> tensor<4x2x2x3x3xf32>
  // CHECK: %[[K:.*]] = "ttir.reshape"{{.*}} -> tensor<8x2x3x3xf32>
  // CHECK: %[[FLIPPED:.*]] = "ttir.reverse"(%[[K]]) <{dimensions = array<i64: 2, 3>}>
  // CHECK: "ttir.conv_transpose2d"(%arg0, %[[FLIPPED]]) <{{{.*}}groups = 4 : i32
  func.func @grouped_transposed(%x: tensor<1x5x5x8xf32>, %w: tensor<3x3x8x2xf32>) -> tensor<1x10x10x8xf32> {
    %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {pad = [[1, 2], [1, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<1x5x5x8xf32>, tensor<3x3x8x2xf32>) -> tensor<1x10x10x8xf32>
    return %0 : tensor<1x10x10x8xf32>
  }

  // A kernel the program reversed itself is used as it was: the two flips cancel.
  // CHECK-LABEL: func.func @transposed_of_reversed
  // CHECK-NOT: ttir.reverse
  // CHECK: "ttir.conv_transpose2d"
  func.func @transposed_of_reversed(%x: tensor<1x5x5x8xf32>, %w: tensor<3x3x8x8xf32>) -> tensor<1x10x10x8xf32> {
    %r = stablehlo.reverse %w, dims = [0, 1] : tensor<3x3x8x8xf32>
    %0 = stablehlo.convolution(%x, %r) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 2], [1, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x10x10x8xf32>
    return %0 : tensor<1x10x10x8xf32>
  }
}
