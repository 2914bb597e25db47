// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// A 2x2 max pool: one gather per window offset, each (9, 32) matrix of what that offset reads (rows (n, oh, ow),
// whole channel face rows), combined by maxima; nothing reads outside the input, so no mask. The (9, 32) result is
// reshaped to NHWC.

// CHECK-DAG: #[[W00:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1 floordiv 9, ((d1 floordiv 3) mod 3) * 2, (d1 mod 3) * 2, d2)>
// CHECK-DAG: #[[W11:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1 floordiv 9, ((d1 floordiv 3) mod 3) * 2 + 1, (d1 mod 3) * 2 + 1, d2)>
// CHECK-DAG: #[[UP:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0 floordiv 4, (d0 mod 4) floordiv 2, d1 floordiv 2, d2)>
// CHECK-DAG: #[[SELECT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (0, d2 + d1 * -49)>
// CHECK-LABEL: func.func @pool
// CHECK-NOT: ttir.max_pool2d
// CHECK-NOT: d2m.tile_where
// CHECK: d2m.view_layout %{{.*}} remapping = #[[W00]]
// CHECK-COUNT-3: d2m.tile_maximum
// CHECK: into tensor<1x3x3x32xbf16>
func.func @pool(%x: tensor<1x6x6x32xbf16>) -> tensor<1x3x3x32xbf16> {
  %0 = "ttir.max_pool2d"(%x) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = array<i32: 2, 2>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x6x6x32xbf16>) -> tensor<1x3x3x32xbf16>
  return %0 : tensor<1x3x3x32xbf16>
}

// A padded max pool masks what its edge windows read outside the input with -inf (where over the same gather of
// ones); the centre offset reads inside for every position and is not masked.
// CHECK-LABEL: func.func @padded
// CHECK-COUNT-8: d2m.tile_where
// CHECK-NOT: d2m.tile_where
// CHECK: into tensor<1x4x4x32xbf16>
func.func @padded(%x: tensor<1x4x4x32xbf16>) -> tensor<1x4x4x32xbf16> {
  %0 = "ttir.max_pool2d"(%x) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x4x4x32xbf16>) -> tensor<1x4x4x32xbf16>
  return %0 : tensor<1x4x4x32xbf16>
}

// Nearest upsampling: one gather, output (n, y, x, c) reading (n, y / 2, x / 2, c).
// CHECK-LABEL: func.func @up
// CHECK: d2m.view_layout %{{.*}} remapping = #[[UP]]
// CHECK: into tensor<1x4x6x32xbf16>
func.func @up(%x: tensor<1x2x3x32xbf16>) -> tensor<1x4x6x32xbf16> {
  %0 = "ttir.upsample2d"(%x) <{mode = "nearest", scale_factor = 2 : si32}> : (tensor<1x2x3x32xbf16>) -> tensor<1x4x6x32xbf16>
  return %0 : tensor<1x4x6x32xbf16>
}

// A global average pool: the (2*7*7, 64) pixels times a (2, 98) selector whose row n is ones over image n's
// pixels (a gather of one row of ones, shifted by n images), divided by 49; the argument seen as its pixels on the
// host.
// CHECK-LABEL: func.func @global
// CHECK: "ttir.reshape"(%arg0) <{shape = [98 : i32, 64 : i32]}> : (tensor<2x7x7x64xbf16>) -> tensor<98x64xbf16>
// CHECK: d2m.tile_fill
// CHECK: d2m.view_layout %{{.*}} remapping = #[[SELECT]]
// CHECK: into tensor<2x98xbf16>
// CHECK: d2m.tile_matmul
// CHECK: d2m.tile_div
// CHECK: into tensor<2x1x1x64xbf16>
func.func @global(%x: tensor<2x7x7x64xbf16>) -> tensor<2x1x1x64xbf16> {
  %0 = "ttir.global_avg_pool2d"(%x) : (tensor<2x7x7x64xbf16>) -> tensor<2x1x1x64xbf16>
  return %0 : tensor<2x1x1x64xbf16>
}
