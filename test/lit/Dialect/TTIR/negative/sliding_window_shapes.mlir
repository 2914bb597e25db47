// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// Shape rules of conv2d / conv_transpose2d / pool2d, worded as upstream's verifiers word them.

func.func @stride_triple(%x: tensor<1x8x8x4xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'ttir.conv2d' op Expected integer or pair of integers, got tuple of size 3 for stride}}
  %0 = "ttir.conv2d"(%x, %w) <{dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = array<i32: 1, 1, 1>}> : (tensor<1x8x8x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----
func.func @padding_triple(%x: tensor<1x8x8x4xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'ttir.conv2d' op Expected integer, pair, or tuple of size 4, but got tuple of size 3 for padding}}
  %0 = "ttir.conv2d"(%x, %w) <{dilation = 1 : i32, groups = 1 : i32, padding = array<i32: 0, 0, 0>, stride = 1 : i32}> : (tensor<1x8x8x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----
func.func @conv_groups(%x: tensor<1x8x8x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'ttir.conv2d' op The number of input channels from the input tensor (6) is not divisible by the number of groups (4).}}
  %0 = "ttir.conv2d"(%x, %w) <{dilation = 1 : i32, groups = 4 : i32, padding = 0 : i32, stride = 1 : i32}> : (tensor<1x8x8x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----
func.func @conv_spatial(%x: tensor<1x8x8x4xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x6x7x4xf32> {
  // expected-error @+1 {{'ttir.conv2d' op The output tensor height and width dimension (6, 7) do not match the expected dimensions (6, 6).}}
  %0 = "ttir.conv2d"(%x, %w) <{dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32}> : (tensor<1x8x8x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x6x7x4xf32>
  return %0 : tensor<1x6x7x4xf32>
}

// -----
func.func @conv_flattened_rows(%x: tensor<1x1x60x4xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x1x36x4xf32> {
  // expected-error @+1 {{'ttir.conv2d' op The input tensor's flattened dimension (60) does not match the product of batch_size * input_height * input_width from FlattenedCompatInfo (1 * 8 * 8 = 64).}}
  %0 = "ttir.conv2d"(%x, %w) <{dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32, flattened_compat_info = #ttir<flattened_compat batch_size = 1, input_height = 8, input_width = 8>}> : (tensor<1x1x60x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x1x36x4xf32>
  return %0 : tensor<1x1x36x4xf32>
}

// -----
func.func @pool_kernel_triple(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error @+1 {{'ttir.max_pool2d' op Expected integer or pair of integers, got tuple of size 3}}
  %0 = "ttir.max_pool2d"(%x) <{ceil_mode = false, dilation = 1 : i32, kernel = array<i32: 2, 2, 2>, padding = 0 : i32, stride = 2 : i32}> : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----
func.func @pool_flattened_output(%x: tensor<1x1x64x4xf32>) -> tensor<1x1x15x4xf32> {
  // expected-error @+1 {{'ttir.max_pool2d' op output tensor's flattened dimension (15) does not match the product of batch_size * output_height * output_width (1 * 4 * 4 = 16)}}
  %0 = "ttir.max_pool2d"(%x) <{ceil_mode = false, dilation = 1 : i32, kernel = 2 : i32, padding = 0 : i32, stride = 2 : i32, flattened_compat_info = #ttir<flattened_compat batch_size = 1, input_height = 8, input_width = 8>}> : (tensor<1x1x64x4xf32>) -> tensor<1x1x15x4xf32>
  return %0 : tensor<1x1x15x4xf32>
}

// -----
func.func @transpose_stride(%x: tensor<1x8x8x4xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x10x10x4xf32> {
  // expected-error @+1 {{'ttir.conv_transpose2d' op Stride values must be greater than 0}}
  %0 = "ttir.conv_transpose2d"(%x, %w) <{dilation = 1 : i32, groups = 1 : i32, output_padding = 0 : i32, padding = 0 : i32, stride = 0 : i32}> : (tensor<1x8x8x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x10x10x4xf32>
  return %0 : tensor<1x10x10x4xf32>
}

// -----
func.func @indices_shape(%x: tensor<1x8x8x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x2xsi32>) {
  // expected-error @+1 {{'ttir.max_pool2d_with_indices' op Pooled values and indices must have the same shape}}
  %0, %1 = "ttir.max_pool2d_with_indices"(%x) <{ceil_mode = false, dilation = 1 : i32, kernel = 2 : i32, padding = 0 : i32, stride = 2 : i32}> : (tensor<1x8x8x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x2xsi32>)
  return %0, %1 : tensor<1x4x4x4xf32>, tensor<1x4x4x2xsi32>
}

// -----
func.func @indices_type(%x: tensor<1x8x8x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  // expected-error @+1 {{'ttir.max_pool2d_with_indices' op Indices result must have integer element type}}
  %0, %1 = "ttir.max_pool2d_with_indices"(%x) <{ceil_mode = false, dilation = 1 : i32, kernel = 2 : i32, padding = 0 : i32, stride = 2 : i32}> : (tensor<1x8x8x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>)
  return %0, %1 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}
