// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// TTNN's conv2d checks its attributes against its flattened input, raw weight and output.
// expected-error @+4 {{'ttnn.conv2d' op Expected kernel width attribute (5) to match the kernel width in the weight tensor (3).}}
module {
  func.func @kernel_width(%x: tensor<1x1x1024x64xbf16>, %w: tensor<64x64x3x3xbf16>) -> tensor<1x1x900x64xbf16> {
    %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %0 = "ttnn.conv2d"(%x, %w, %d) <{batch_size = 1 : i32, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 64 : i32, input_height = 32 : i32, input_width = 32 : i32, kernel_size = array<i32: 3, 5>, out_channels = 64 : i32, padding = array<i32: 0, 0>, stride = array<i32: 1, 1>}> : (tensor<1x1x1024x64xbf16>, tensor<64x64x3x3xbf16>, !ttnn.device) -> tensor<1x1x900x64xbf16>
    return %0 : tensor<1x1x900x64xbf16>
  }
}

// -----
// expected-error @+4 {{'ttnn.conv2d' op The output tensor's flattened dimension (900) does not match the product of batch_size * output_height * output_width (1 * 15 * 15 = 225).}}
module {
  func.func @strided_output(%x: tensor<1x1x1024x64xbf16>, %w: tensor<64x64x3x3xbf16>) -> tensor<1x1x900x64xbf16> {
    %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %0 = "ttnn.conv2d"(%x, %w, %d) <{batch_size = 1 : i32, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 64 : i32, input_height = 32 : i32, input_width = 32 : i32, kernel_size = array<i32: 3, 3>, out_channels = 64 : i32, padding = array<i32: 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x1x1024x64xbf16>, tensor<64x64x3x3xbf16>, !ttnn.device) -> tensor<1x1x900x64xbf16>
    return %0 : tensor<1x1x900x64xbf16>
  }
}

// -----
// A conv3d weight is raw (5D) or prepared (2D); a prepared one has kD*kH*kW*C_in/groups rows.
// expected-error @+4 {{'ttnn.conv3d' op weight flattened dimension (100) must equal kD*kH*kW*C_in/groups (864)}}
module {
  func.func @prepared_rows(%x: tensor<1x8x8x8x32xbf16>, %w: tensor<100x16xbf16>) -> tensor<1x6x6x6x16xbf16> {
    %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %0 = "ttnn.conv3d"(%x, %w, %d) <{batch_size = 1 : i32, groups = 1 : i32, in_channels = 32 : i32, input_depth = 8 : i32, input_height = 8 : i32, input_width = 8 : i32, kernel_size = array<i32: 3, 3, 3>, out_channels = 16 : i32, padding = array<i32: 0, 0, 0>, stride = array<i32: 1, 1, 1>}> : (tensor<1x8x8x8x32xbf16>, tensor<100x16xbf16>, !ttnn.device) -> tensor<1x6x6x6x16xbf16>
    return %0 : tensor<1x6x6x6x16xbf16>
  }
}

// -----
// expected-error @+4 {{'ttnn.conv3d' op output depth (7) does not match calculated depth (6)}}
module {
  func.func @depth(%x: tensor<1x8x8x8x32xbf16>, %w: tensor<16x32x3x3x3xbf16>) -> tensor<1x7x6x6x16xbf16> {
    %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %0 = "ttnn.conv3d"(%x, %w, %d) <{batch_size = 1 : i32, groups = 1 : i32, in_channels = 32 : i32, input_depth = 8 : i32, input_height = 8 : i32, input_width = 8 : i32, kernel_size = array<i32: 3, 3, 3>, out_channels = 16 : i32, padding = array<i32: 0, 0, 0>, stride = array<i32: 1, 1, 1>}> : (tensor<1x8x8x8x32xbf16>, tensor<16x32x3x3x3xbf16>, !ttnn.device) -> tensor<1x7x6x6x16xbf16>
    return %0 : tensor<1x7x6x6x16xbf16>
  }
}

// -----
// expected-error @+4 {{'ttnn.prepare_conv3d_weights' op C_in_block (24) must divide aligned input channels (64)}}
module {
  func.func @block(%w: tensor<16x40x3x3x3xbf16>) -> tensor<1728x16xbf16> {
    %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %0 = "ttnn.prepare_conv3d_weights"(%w, %d) <{alignment = 32 : i32, c_in_block = 24 : i32, groups = 1 : i32}> : (tensor<16x40x3x3x3xbf16>, !ttnn.device) -> tensor<1728x16xbf16>
    return %0 : tensor<1728x16xbf16>
  }
}

// -----
// A tensor's element type is a scalar: tiles belong to its layout's memref.
#dram = #ttnn.buffer_type<dram>
#tiled = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @tile_elements(%x: tensor<32x32x!ttcore.tile<32x32, bf16>, #tiled>) -> tensor<32x32x!ttcore.tile<32x32, bf16>, #tiled> {
    // expected-error @+1 {{'ttnn.relu' op Output element type must match the scalar element type from encoding. Element type: '!ttcore.tile<32x32, bf16>', Scalar element type: 'bf16'.}}
    %0 = "ttnn.relu"(%x) : (tensor<32x32x!ttcore.tile<32x32, bf16>, #tiled>) -> tensor<32x32x!ttcore.tile<32x32, bf16>, #tiled>
    return %0 : tensor<32x32x!ttcore.tile<32x32, bf16>, #tiled>
  }
}
