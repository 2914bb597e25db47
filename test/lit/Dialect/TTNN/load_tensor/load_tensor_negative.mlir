// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

#dram = #ttnn.buffer_type<dram>
#on_device = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
func.func @device_tensor_without_device() -> tensor<32x32xf32, #on_device> {
  // expected-error @+1 {{'ttnn.load_tensor' op device operand must be specified for device memory buffer type}}
  %0 = "ttnn.load_tensor"() <{file_path = "a.tensorbin"}> : () -> tensor<32x32xf32, #on_device>
  return %0 : tensor<32x32xf32, #on_device>
}

// -----

#system_memory = #ttnn.buffer_type<system_memory>
#on_host = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xf32, #system_memory>>
func.func @not_a_tensorbin() -> tensor<32x32xf32, #on_host> {
  // expected-error @+1 {{'ttnn.load_tensor' op file a.bin must end with .tensorbin extension}}
  %0 = "ttnn.load_tensor"() <{file_path = "a.bin"}> : () -> tensor<32x32xf32, #on_host>
  return %0 : tensor<32x32xf32, #on_host>
}
