// RUN: ttmlir-opt --convert-tosa-to-ttir %s | FileCheck %s
// A TOSA conv2d (NHWC input, OHWI weight, a bias per output channel, pads top/bottom/left/right) is TTIR's conv2d
// on the weight permuted to OIHW and the bias as 1x1x1xO, pads reordered top/left/bottom/right.

// CHECK-LABEL: func.func @conv
// CHECK: %[[W:.*]] = "ttir.permute"(%arg1) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<8x3x2x4xf32>) -> tensor<8x4x3x2xf32>
// CHECK: %[[B:.*]] = "ttir.reshape"(%arg2) <{shape = [1 : i32, 1 : i32, 1 : i32, 8 : i32]}> : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
// CHECK: "ttir.conv2d"(%arg0, %[[W]], %[[B]]) <{dilation = array<i32: 1, 2>, groups = 1 : i32, padding = array<i32: 1, 0, 2, 1>, stride = array<i32: 2, 1>}>
// CHECK-SAME: -> tensor<1x6x7x8xf32>
func.func @conv(%x: tensor<1x10x8x4xf32>, %w: tensor<8x3x2x4xf32>, %b: tensor<8xf32>) -> tensor<1x6x7x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 2, 0, 1>, stride = array<i64: 2, 1>} : (tensor<1x10x8x4xf32>, tensor<8x3x2x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x7x8xf32>
  return %0 : tensor<1x6x7x8xf32>
}
