// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// TTNN's own checks of rand, pow_scalar and constant, in upstream's words.
#dram = #ttnn.buffer_type<dram>
#l = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
func.func @rand_size_differs() -> tensor<32x32xbf16, #l> {
  %0 = "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
  // expected-error @+1 {{'ttnn.rand' op size argument does not match with output tensor shape. [Size = (32, 64), output tensor shape = (32, 32)]}}
  %1 = "ttnn.rand"(%0) <{high = 1.0 : f32, low = 0.0 : f32, seed = 0 : ui32, size = #ttnn.shape<32x64>}> : (!ttnn.device) -> tensor<32x32xbf16, #l>
  return %1 : tensor<32x32xbf16, #l>
}

// -----
#dram = #ttnn.buffer_type<dram>
#l = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
func.func @pow_negative_exponent(%arg0: tensor<32x32xbf16, #l>) -> tensor<32x32xbf16, #l> {
  // expected-error @+1 {{'ttnn.pow_scalar' op exponent must be non-negative; but got -5.000000e-01}}
  %0 = "ttnn.pow_scalar"(%arg0) <{rhs = -0.5 : f32}> : (tensor<32x32xbf16, #l>) -> tensor<32x32xbf16, #l>
  return %0 : tensor<32x32xbf16, #l>
}

// -----
#dram = #ttnn.buffer_type<dram>
#l = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
func.func @device_constant_without_device() -> tensor<32x32xbf16, #l> {
  // expected-error @+1 {{'ttnn.constant' op device operand must be specified for non-system memory buffer type}}
  %0 = "ttnn.constant"() <{value = dense<1.0> : tensor<32x32xbf16>}> : () -> tensor<32x32xbf16, #l>
  return %0 : tensor<32x32xbf16, #l>
}
