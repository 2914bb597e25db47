// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @flat_bias(%x: tensor<1x32x64xbf16>, %w: tensor<64x64x3xbf16>, %b: tensor<1x1x64xbf16>, %d: !ttnn.device) -> tensor<1x1x30x64xbf16> {
  // expected-error @+1 {{'ttnn.conv1d' op bias must be a 4D tensor (1, 1, 1, O)}}
  %0 = "ttnn.conv1d"(%x, %w, %b, %d) <{batch_size = 1 : i32, dilation = 1 : i32, groups = 1 : i32, in_channels = 64 : i32, input_length = 32 : i32, kernel_size = 3 : i32, out_channels = 64 : i32, padding = array<i32: 0, 0>, stride = 1 : i32}> : (tensor<1x32x64xbf16>, tensor<64x64x3xbf16>, tensor<1x1x64xbf16>, !ttnn.device) -> tensor<1x1x30x64xbf16>
  return %0 : tensor<1x1x30x64xbf16>
}

// -----

func.func @one_sided_padding(%x: tensor<1x32x64xbf16>, %w: tensor<64x64x3xbf16>, %d: !ttnn.device) -> tensor<1x1x30x64xbf16> {
  // expected-error @+1 {{'ttnn.conv1d' op padding attribute must have exactly 2 elements ([pL, pR])}}
  %0 = "ttnn.conv1d"(%x, %w, %d) <{batch_size = 1 : i32, dilation = 1 : i32, groups = 1 : i32, in_channels = 64 : i32, input_length = 32 : i32, kernel_size = 3 : i32, out_channels = 64 : i32, padding = array<i32: 0>, stride = 1 : i32}> : (tensor<1x32x64xbf16>, tensor<64x64x3xbf16>, !ttnn.device) -> tensor<1x1x30x64xbf16>
  return %0 : tensor<1x1x30x64xbf16>
}

// -----

func.func @groups_not_dividing(%x: tensor<1x32x64xbf16>, %w: tensor<64x2x3xbf16>, %d: !ttnn.device) -> tensor<1x1x30x64xbf16> {
  // expected-error @+1 {{'ttnn.conv1d' op in_channels must be divisible by groups}}
  %0 = "ttnn.conv1d"(%x, %w, %d) <{batch_size = 1 : i32, dilation = 1 : i32, groups = 3 : i32, in_channels = 64 : i32, input_length = 32 : i32, kernel_size = 3 : i32, out_channels = 64 : i32, padding = array<i32: 0, 0>, stride = 1 : i32}> : (tensor<1x32x64xbf16>, tensor<64x2x3xbf16>, !ttnn.device) -> tensor<1x1x30x64xbf16>
  return %0 : tensor<1x1x30x64xbf16>
}

// -----

func.func @wrong_length(%x: tensor<1x32x64xbf16>, %w: tensor<64x64x3xbf16>, %d: !ttnn.device) -> tensor<1x1x32x64xbf16> {
  // expected-error @+1 {{'ttnn.conv1d' op output must be (1, 1, N * L_out, O) = (1, 1, 30, 64), got (1, 1, 32, 64)}}
  %0 = "ttnn.conv1d"(%x, %w, %d) <{batch_size = 1 : i32, dilation = 1 : i32, groups = 1 : i32, in_channels = 64 : i32, input_length = 32 : i32, kernel_size = 3 : i32, out_channels = 64 : i32, padding = array<i32: 0, 0>, stride = 1 : i32}> : (tensor<1x32x64xbf16>, tensor<64x64x3xbf16>, !ttnn.device) -> tensor<1x1x32x64xbf16>
  return %0 : tensor<1x1x32x64xbf16>
}
