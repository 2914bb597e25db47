// RUN: ttmlir-opt --ttcore-register-device --ttnn-operation-validation-and-fallback %s | FileCheck %s
// RUN: not ttmlir-opt --ttcore-register-device --ttnn-operation-validation-and-fallback="max-fallback-attempts=33" %s 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: ttmlir-opt --ttcore-register-device %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn

// A conv2d whose input, halo and output do not fit L1 whole is sliced through DRAM along the output's width, with
// the largest activation block that fits; one that fits as configured keeps its configuration.
#dram = #ttnn.buffer_type<dram>
#host = #ttnn.buffer_type<system_memory>
#big_in = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 262144 + d1 * 262144 + d2, d3), <1x1>, memref<8192x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#big_w = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 384 + d1 * 3 + d2, d3), <1x1>, memref<49152x3xbf16, #host>>
#small_in = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 1024 + d2, d3), <1x1>, memref<32x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#small_w = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 3 + d2, d3), <1x1>, memref<12288x3xbf16, #host>>

// CHECK-LABEL: func.func @too_big_for_l1
// CHECK: "ttnn.conv2d"{{.*}}conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, act_block_h_override = 1024>, conv2d_slice_config = #ttnn.conv2d_slice_config<dram_width, 0>
// LIMIT: error: OperationValidationAndFallback: Operation ttnn.conv2d failed validation (original error: Out of Memory Error - needs {{[0-9]+}} bytes of L1 per core, more than the {{[0-9]+}} available). No fallback configuration worked (tested up to 33 combinations).
func.func @too_big_for_l1(%x: tensor<1x1x262144x128xbf16, #big_in>, %w: tensor<128x128x3x3xbf16, #big_w>) -> tensor<1x1x262144x128xbf16, #big_in> {
  %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
  %0 = "ttnn.conv2d"(%x, %w, %d) <{batch_size = 1 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 128 : i32, input_height = 512 : i32, input_width = 512 : i32, kernel_size = array<i32: 3, 3>, out_channels = 128 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x1x262144x128xbf16, #big_in>, tensor<128x128x3x3xbf16, #big_w>, !ttnn.device) -> tensor<1x1x262144x128xbf16, #big_in>
  return %0 : tensor<1x1x262144x128xbf16, #big_in>
}

// CHECK-LABEL: func.func @fits
// CHECK: "ttnn.conv2d"{{.*}}conv2d_slice_config = #ttnn.conv2d_slice_config<dram_height, 4>
func.func @fits(%x: tensor<1x1x1024x64xbf16, #small_in>, %w: tensor<64x64x3x3xbf16, #small_w>) -> tensor<1x1x1024x64xbf16, #small_in> {
  %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
  %0 = "ttnn.conv2d"(%x, %w, %d) <{batch_size = 1 : i32, conv2d_slice_config = #ttnn.conv2d_slice_config<dram_height, 4>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 64 : i32, input_height = 32 : i32, input_width = 32 : i32, kernel_size = array<i32: 3, 3>, out_channels = 64 : i32, padding = array<i32: 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x1x1024x64xbf16, #small_in>, tensor<64x64x3x3xbf16, #small_w>, !ttnn.device) -> tensor<1x1x1024x64xbf16, #small_in>
  return %0 : tensor<1x1x1024x64xbf16, #small_in>
}
