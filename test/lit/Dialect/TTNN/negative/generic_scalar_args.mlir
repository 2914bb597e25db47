// RUN: ttmlir-opt --verify-diagnostics --split-input-file %s

// A ttnn.generic's scalars come after its tensors and have at most 32 bits (the runtime passes their bits as one
// kernel argument word).
#dram = #ttnn.buffer_type<dram>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
func.func @wide_scalar(%out: tensor<32x32xf32, #layout>, %s: i64) {
  // expected-error @+1 {{'ttnn.generic' op operand #1: a scalar argument is at most 32 bits, got 'i64'}}
  "ttnn.generic"(%out, %s) <{operandSegmentSizes = array<i32: 1, 1>, program = #ttnn.program<kernels = [#ttnn.source_write_kernel<source = "void kernel_main() {}", core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>, ct_args = [], common_rt_args = [#ttnn.kernel_arg_address_of_tensor<0>, #ttnn.kernel_arg_scalar<1>], rt_args = []>], cbs = [], semaphores = []>}> : (tensor<32x32xf32, #layout>, i64) -> ()
  return
}

// -----
#dram = #ttnn.buffer_type<dram>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
func.func @scalar_as_io(%out: tensor<32x32xf32, #layout>, %s: f32) {
  // expected-error @+1 {{'ttnn.generic' op operand #0: inputs and outputs are tensors, got 'f32'}}
  "ttnn.generic"(%s, %out) <{operandSegmentSizes = array<i32: 1, 1>, program = #ttnn.program<kernels = [#ttnn.source_write_kernel<source = "void kernel_main() {}", core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>, ct_args = [], common_rt_args = [#ttnn.kernel_arg_address_of_tensor<0>, #ttnn.kernel_arg_scalar<1>], rt_args = []>], cbs = [], semaphores = []>}> : (f32, tensor<32x32xf32, #layout>) -> ()
  return
}
