// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// Kernels given as C++ source (as --ttnn-lower-tt-lang-to-generic makes them) print back as they read.
// CHECK: #ttnn.source_read_kernel<source = "void kernel_main() {}", core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>, ct_args = [#ttnn.kernel_arg_cb_buffer_index<0>, #ttnn.kernel_arg_tensor_accessor_args<0>], common_rt_args = [#ttnn.kernel_arg_address_of_tensor<0>], rt_args = []>
// CHECK-SAME: #ttnn.source_compute_kernel<source = "namespace NAMESPACE {\0Avoid MAIN {}\0A}", core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>, math_fidelity = hifi2, fp32_dest_acc_en = true
// CHECK-SAME: #ttnn.source_write_kernel<source = "void kernel_main() {}"

#dram = #ttnn.buffer_type<dram>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
func.func @copy(%a: tensor<32x32xf32, #layout>, %out: tensor<32x32xf32, #layout>) -> tensor<32x32xf32, #layout> {
  "ttnn.generic"(%a, %out) <{operandSegmentSizes = array<i32: 2, 0>, program = #ttnn.program<kernels = [#ttnn.source_read_kernel<source = "void kernel_main() {}", core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>, ct_args = [#ttnn.kernel_arg_cb_buffer_index<0>, #ttnn.kernel_arg_tensor_accessor_args<0>], common_rt_args = [#ttnn.kernel_arg_address_of_tensor<0>], rt_args = []>, #ttnn.source_compute_kernel<source = "namespace NAMESPACE {\0Avoid MAIN {}\0A}", core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>, math_fidelity = hifi2, fp32_dest_acc_en = true, dst_full_sync_en = false, unpack_to_dest_modes = [], bfp8_pack_precise = false, math_approx_mode = false, ct_args = [#ttnn.kernel_arg_cb_buffer_index<0>], common_rt_args = [], rt_args = []>, #ttnn.source_write_kernel<source = "void kernel_main() {}", core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>, ct_args = [], common_rt_args = [#ttnn.kernel_arg_address_of_tensor<1>], rt_args = []>], cbs = [<total_size = 4096, core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>, formats = [<buffer_index = 0, dtype = f32, page_size = 4096>]>], semaphores = []>}> : (tensor<32x32xf32, #layout>, tensor<32x32xf32, #layout>) -> ()
  return %out : tensor<32x32xf32, #layout>
}
