// RUN: ttmlir-opt --split-input-file --verify-diagnostics --convert-ttir-to-ttnn %s
// TTNN's conv2d and pools take a flattened input: lowering without the flattening pass is an error, not a guess.

func.func @conv(%x: tensor<1x8x8x4xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'ttir.conv2d' op TTNN only supports flattened input tensors for Conv2dOp. Please run the FlattenSlidingWindow pass before lowering to TTNN.}}
  %0 = "ttir.conv2d"(%x, %w) <{dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32}> : (tensor<1x8x8x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----
func.func @pool(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error @+1 {{'ttir.max_pool2d' op only supports lowering to TTNN for flattened input tensors. Please run the FlattenSlidingWindow pass before lowering to TTNN}}
  %0 = "ttir.max_pool2d"(%x) <{ceil_mode = false, dilation = 1 : i32, kernel = 2 : i32, padding = 0 : i32, stride = 2 : i32}> : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}
