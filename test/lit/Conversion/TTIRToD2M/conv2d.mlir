// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device --ttir-to-d2m --split-input-file %S/conv2d_negative.mlir 2>&1 | FileCheck %S/conv2d_negative.mlir
// A conv2d as an im2col gather and the tiled matmul. Two images whose height is padded are first seen as
// (N, H, W*C) = (2, 6, 192), so the reader's row check (0 <= ih < 6) leaves the padding zero rather than reading the
// other image; the patches (18, 288) read channel runs of 32 (face rows); the weight (64, 32, 3, 3) becomes the
// (288, 64) matrix, row (kh, kw, c), from its (64, 288) view (rows the output channels) transposed tile by tile, its
// rows (c, kh, kw) then regrouped by face rows; the bias is added to each
// row; the product is reshaped to NHWC. The arguments' reshapes (the input's, the weight's, the bias's) are views the
// host makes: each is moved to the device as the reshaped tensor (the weight as its 2x9 tiles, not 2048 padded
// 3x3 windows).

// CHECK-DAG: #[[PATCHES:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1 floordiv 9, ((d1 floordiv 3) mod 3) * 2 + d2 floordiv 96 - 1, (d1 mod 3) * 64 + ((d2 floordiv 32) mod 3) * 32 - 32 + d2 mod 32)>
// CHECK-DAG: #[[WEIGHT:map[0-9]*]] = affine_map<(d0, d1, d2) -> ((d1 mod 32) * 9 + d1 floordiv 32, d2)>
// CHECK-DAG: #[[DEPTH:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, (d1 mod 32) * 9 + d2 * -9 + d1 floordiv 32)>
// CHECK-DAG: #[[TPATCH:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1 floordiv 48, ((d1 floordiv 6) mod 8 + (d2 floordiv 32) * -1 + 2) floordiv 2 - 1 + (((d1 floordiv 6) mod 8 + (d2 floordiv 32) * -1 + 2) mod 2) * 5, ((d1 mod 6 + ((d2 floordiv 16) mod 2) * -1 + 2) floordiv 2) * 16 - 16 + ((d1 mod 6 + ((d2 floordiv 16) mod 2) * -1 + 2) mod 2) * 64 + d2 mod 16)>
// CHECK-DAG: #[[RGB:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1 floordiv 25, d2 mod 3, ((d1 floordiv 5) mod 5) * 2 + d2 floordiv 9 - 1, (d1 mod 5) * 2 + (d2 floordiv 3) mod 3 - 1)>
// CHECK-LABEL: func.func @conv_nhwc
// CHECK-NOT: ttir.conv2d
// CHECK: %[[X:.*]] = "ttir.reshape"(%arg0) <{shape = [2 : i32, 6 : i32, 192 : i32]}> : (tensor<2x6x6x32xbf16>) -> tensor<2x6x192xbf16>
// CHECK: d2m.to_layout %[[X]], %{{.*}} : tensor<2x6x192xbf16> into tensor<1x1x2x6x!ttcore.tile<32x32, bf16>
// CHECK-NEXT: d2m.view_layout %{{.*}} remapping = #[[PATCHES]] : tensor<1x1x2x6x!ttcore.tile<32x32, bf16>, #{{.*}}> -> tensor<1x1x1x9x!ttcore.tile<32x32, bf16>
// CHECK: d2m.to_layout %{{.*}} into tensor<18x288xbf16>
// CHECK: %[[W:.*]] = "ttir.reshape"(%arg1) <{shape = [64 : i32, 288 : i32]}> : (tensor<64x32x3x3xbf16>) -> tensor<64x288xbf16>
// CHECK: d2m.to_layout %[[W]], %{{.*}} : tensor<64x288xbf16> into tensor<1x1x2x9x!ttcore.tile<32x32, bf16>
// CHECK: d2m.tile_transpose
// CHECK: d2m.to_layout %{{.*}} into tensor<288x64xbf16>
// CHECK: d2m.view_layout %{{.*}} remapping = #[[WEIGHT]] : tensor<1x1x9x2x!ttcore.tile<32x32, bf16>, #{{.*}}> -> tensor<1x1x9x2x!ttcore.tile<32x32, bf16>
// CHECK: d2m.to_layout %{{.*}} into tensor<288x64xbf16>
// CHECK: d2m.tile_matmul
// CHECK: into tensor<18x64xbf16>
// CHECK: "ttir.reshape"(%arg2) <{shape = [1 : i32, 64 : i32]}>
// CHECK: d2m.tile_add
// CHECK: into tensor<2x3x3x64xbf16>
func.func @conv_nhwc(%x: tensor<2x6x6x32xbf16>, %w: tensor<64x32x3x3xbf16>, %b: tensor<1x1x1x64xbf16>) -> tensor<2x3x3x64xbf16> {
  %0 = "ttir.conv2d"(%x, %w, %b) <{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>}> : (tensor<2x6x6x32xbf16>, tensor<64x32x3x3xbf16>, tensor<1x1x1x64xbf16>) -> tensor<2x3x3x64xbf16>
  return %0 : tensor<2x3x3x64xbf16>
}

// A depthwise conv2d of one NCHW image: permuted to NHWC (one image: its padded rows fall outside the source as they
// are), the weight seen as (32, 9), its channel within the group a column offset there, so other groups' channels
// fall outside it and read as zeros (a block-diagonal (288, 32) matrix), the result permuted back.
// CHECK-LABEL: func.func @depthwise_nchw
// CHECK-NOT: ttir.conv2d
// CHECK: into tensor<1x8x8x32xbf16>
// CHECK: into tensor<64x288xbf16>
// CHECK: "ttir.reshape"(%arg1) <{shape = [32 : i32, 9 : i32]}> : (tensor<32x1x3x3xbf16>) -> tensor<32x9xbf16>
// CHECK: d2m.view_layout %{{.*}} remapping = #[[DEPTH]]
// CHECK: into tensor<288x32xbf16>
// CHECK: d2m.tile_matmul
// CHECK: into tensor<1x32x8x8xbf16>
func.func @depthwise_nchw(%x: tensor<1x32x8x8xbf16>, %w: tensor<32x1x3x3xbf16>) -> tensor<1x32x8x8xbf16> {
  %0 = "ttir.conv2d"(%x, %w) <{batch_dim = 0 : i64, channel_dim = 1 : i64, dilation = array<i32: 1, 1>, groups = 32 : i32, height_dim = 2 : i64, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>, width_dim = 3 : i64}> : (tensor<1x32x8x8xbf16>, tensor<32x1x3x3xbf16>) -> tensor<1x32x8x8xbf16>
  return %0 : tensor<1x32x8x8xbf16>
}

// A conv_transpose2d of stride 2: output row (n, oy, ox), column (kh, kw, c) reads input row (oy + 2 - kh) floordiv 2
// - 1 when the division is exact, else that plus 5 (past the 4 rows: zero), and likewise across (the (N, H, W*C)
// view's columns); the weight (16, 32, 2, 2) seen as (16, 32, 4), each of its (32, 4) matrices transposed tile by
// tile, its taps then moved first (face rows), gives the (64, 32) matrix.
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: ttir.conv_transpose2d
// CHECK: d2m.view_layout %{{.*}} remapping = #[[TPATCH]] : tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #{{.*}}> -> tensor<1x1x3x2x!ttcore.tile<32x32, bf16>
// CHECK: into tensor<96x64xbf16>
// CHECK: "ttir.reshape"(%arg1) <{shape = [16 : i32, 32 : i32, 4 : i32]}> : (tensor<16x32x2x2xbf16>) -> tensor<16x32x4xbf16>
// CHECK: d2m.tile_transpose
// CHECK: into tensor<16x4x32xbf16>
// CHECK: into tensor<4x16x32xbf16>
// CHECK: into tensor<64x32xbf16>
// CHECK: d2m.tile_matmul
// CHECK: into tensor<2x8x6x32xbf16>
func.func @transposed(%x: tensor<2x4x3x16xbf16>, %w: tensor<16x32x2x2xbf16>) -> tensor<2x8x6x32xbf16> {
  %0 = "ttir.conv_transpose2d"(%x, %w) <{dilation = array<i32: 1, 1>, groups = 1 : i32, output_padding = array<i32: 0, 0>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<2x4x3x16xbf16>, tensor<16x32x2x2xbf16>) -> tensor<2x8x6x32xbf16>
  return %0 : tensor<2x8x6x32xbf16>
}

// Three channels of NCHW images are not whole face rows: the input gets zero channels to 16 (as TTNN pads a
// convolution's input channels), is permuted to NHWC (a permute keeping the last dim, then each matrix's tiles
// transposed) and its patches are gathered by face rows; the weight matrix's rows for the added channels read past
// the (27, 8) transposed weight, zero.
// CHECK-LABEL: func.func @rgb_nchw
// CHECK-NOT: ttir.conv2d
// CHECK: into tensor<2x16x9x9xbf16>
// CHECK: into tensor<2x9x16x9xbf16>
// CHECK: d2m.tile_transpose
// CHECK: into tensor<2x9x9x16xbf16>
// CHECK: into tensor<50x144xbf16>
// CHECK: into tensor<144x8xbf16>
// CHECK: d2m.tile_matmul
// CHECK: into tensor<2x8x5x5xbf16>
func.func @rgb_nchw(%x: tensor<2x3x9x9xbf16>, %w: tensor<8x3x3x3xbf16>) -> tensor<2x8x5x5xbf16> {
  %0 = "ttir.conv2d"(%x, %w) <{batch_dim = 0 : i64, channel_dim = 1 : i64, dilation = array<i32: 1, 1>, groups = 1 : i32, height_dim = 2 : i64, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>, width_dim = 3 : i64}> : (tensor<2x3x9x9xbf16>, tensor<8x3x3x3xbf16>) -> tensor<2x8x5x5xbf16>
  return %0 : tensor<2x8x5x5xbf16>
}

// Grouped NCHW channels that are not whole face rows keep their groups: the patches are gathered element by element
// straight from the NCHW input (image n's channel c its matrix, so every padding falls outside one), with no permute
// first.
// CHECK-LABEL: func.func @rgb_grouped_nchw
// CHECK-NOT: ttir.conv2d
// CHECK: d2m.to_layout %arg0
// CHECK-NEXT: d2m.view_layout %{{.*}} remapping = #[[RGB]] : tensor<1x1x6x1x!ttcore.tile<32x32, bf16>, #{{.*}}> -> tensor<1x1x2x1x!ttcore.tile<32x32, bf16>
// CHECK: into tensor<50x27xbf16>
// CHECK: d2m.tile_matmul
// CHECK: into tensor<2x3x5x5xbf16>
func.func @rgb_grouped_nchw(%x: tensor<2x3x9x9xbf16>, %w: tensor<3x1x3x3xbf16>) -> tensor<2x3x5x5xbf16> {
  %0 = "ttir.conv2d"(%x, %w) <{batch_dim = 0 : i64, channel_dim = 1 : i64, dilation = array<i32: 1, 1>, groups = 3 : i32, height_dim = 2 : i64, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>, width_dim = 3 : i64}> : (tensor<2x3x9x9xbf16>, tensor<3x1x3x3xbf16>) -> tensor<2x3x5x5xbf16>
  return %0 : tensor<2x3x5x5xbf16>
}
