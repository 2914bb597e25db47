// RUN: true
// Checked from conv2d.mlir: sliding-window ops the D2M path does not convert yet, refused at the op.

// CHECK: conv2d_negative.mlir:[[# @LINE + 2]]:8: error: an upsample2d in mode bilinear is not converted to D2M yet (nearest is)
func.func @bilinear(%x: tensor<1x4x4x32xbf16>) -> tensor<1x8x8x32xbf16> {
  %0 = "ttir.upsample2d"(%x) <{mode = "bilinear", scale_factor = 2 : si32}> : (tensor<1x4x4x32xbf16>) -> tensor<1x8x8x32xbf16>
  return %0 : tensor<1x8x8x32xbf16>
}

// -----

// CHECK: conv2d_negative.mlir:[[# @LINE + 2]]:8: error: an avg_pool2d with count_include_pad whose ceil_mode windows leave the padded input is not converted to D2M yet
func.func @ceil_avg(%x: tensor<1x7x7x32xbf16>) -> tensor<1x4x4x32xbf16> {
  %0 = "ttir.avg_pool2d"(%x) <{ceil_mode = true, count_include_pad = true, dilation = array<i32: 1, 1>, kernel = array<i32: 2, 2>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x7x7x32xbf16>) -> tensor<1x4x4x32xbf16>
  return %0 : tensor<1x4x4x32xbf16>
}
