// RUN: not ttmlir-opt --ttnn-deallocate %s 2>&1 | FileCheck %s
// A convolution that frees its L1 input itself (deallocate_activation) must be its last reader.
#l1 = #ttnn.buffer_type<l1>
#act = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 64 + d1 * 64 + d2, d3), <1x1>, memref<2x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#w = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 96 + d1 * 3 + d2, d3), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#out = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 36 + d1 * 36 + d2, d3), <1x1>, memref<2x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
module {
  func.func @forward(%x: tensor<1x1x64x32xbf16, #act>, %w: tensor<32x32x3x3xbf16, #w>) -> (tensor<1x1x36x32xbf16, #out>, tensor<1x1x64x32xbf16, #act>) {
    %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    // CHECK: :[[# @LINE + 1]]:10: error: use-after-free detected: op deallocates its input but is not the last user
    %0 = "ttnn.conv_transpose2d"(%x, %w, %d) <{batch_size = 1 : i32, conv2d_config = #ttnn.conv2d_config<deallocate_activation = true>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 32 : i32, input_height = 8 : i32, input_width = 8 : i32, kernel_size = array<i32: 3, 3>, out_channels = 32 : i32, output_padding = array<i32: 0, 0>, padding = array<i32: 2, 2>, stride = array<i32: 1, 1>}> : (tensor<1x1x64x32xbf16, #act>, tensor<32x32x3x3xbf16, #w>, !ttnn.device) -> tensor<1x1x36x32xbf16, #out>
    %1 = "ttnn.relu"(%x) : (tensor<1x1x64x32xbf16, #act>) -> tensor<1x1x64x32xbf16, #act>
    return %0, %1 : tensor<1x1x36x32xbf16, #out>, tensor<1x1x64x32xbf16, #act>
  }
}
