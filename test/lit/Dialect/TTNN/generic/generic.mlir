// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: not ttmlir-opt %S/Inputs/generic_bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// A ttnn.generic and its program read and print back unchanged; a kernel binding a tensor the op does not
// have is refused in upstream's words.

#l1 = #ttnn.buffer_type<l1>
#sharded = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(1,0), (1,0)>]>>
// CHECK-LABEL: func.func @copy
func.func @copy(%a: tensor<64x32xbf16, #sharded>, %b: tensor<64x32xbf16, #sharded>) {
  // CHECK: "ttnn.generic"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 2, 0>, program = #ttnn.program<kernels = [
  // CHECK-SAME: #ttnn.read_kernel<symbol_ref = @reader, core_ranges = <[#ttnn.core_range<(1,0), (1,0)>]>, ct_args = [#ttnn.kernel_arg_cb_buffer_index<0>], common_rt_args = [#ttnn.kernel_arg_address_of_tensor<0>, #ttnn.kernel_named_arg<name = "tiles", value = 2>], rt_args = []>
  // CHECK-SAME: #ttnn.compute_kernel<symbol_ref = @compute, core_ranges = <[#ttnn.core_range<(1,0), (1,0)>]>, math_fidelity = lofi, fp32_dest_acc_en = false, dst_full_sync_en = false, unpack_to_dest_modes = [fp32, default], bfp8_pack_precise = false, math_approx_mode = true, ct_args = [], common_rt_args = [], rt_args = []>
  // CHECK-SAME: cbs = [<total_size = 4096, core_ranges = <[#ttnn.core_range<(1,0), (1,0)>]>, formats = [<buffer_index = 0, dtype = bf16, page_size = 2048>], buffer = #ttnn.kernel_cb_global_buffer_address_of_tensor<1>>]
  // CHECK-SAME: semaphores = [<id = 0, core_type = worker, core_ranges = <[#ttnn.core_range<(1,0), (1,0)>]>, initial_value = 3>]>}>
  "ttnn.generic"(%a, %b) <{program = #ttnn.program<kernels = [#ttnn.read_kernel<symbol_ref = @reader, core_ranges = <[#ttnn.core_range<(1,0), (1,0)>]>, ct_args = [#ttnn.kernel_arg_cb_buffer_index<0>], common_rt_args = [#ttnn.kernel_arg_address_of_tensor<0>, #ttnn.kernel_named_arg<name = "tiles", value = 2>], rt_args = []>, #ttnn.compute_kernel<symbol_ref = @compute, core_ranges = <[#ttnn.core_range<(1,0), (1,0)>]>, math_fidelity = lofi, fp32_dest_acc_en = false, dst_full_sync_en = false, unpack_to_dest_modes = [fp32, default], bfp8_pack_precise = false, math_approx_mode = true, ct_args = [], common_rt_args = [], rt_args = []>], cbs = [<total_size = 4096, core_ranges = <[#ttnn.core_range<(1,0), (1,0)>]>, formats = [<buffer_index = 0, dtype = bf16, page_size = 2048>], buffer = #ttnn.kernel_cb_global_buffer_address_of_tensor<1>>], semaphores = [<id = 0, core_type = worker, core_ranges = <[#ttnn.core_range<(1,0), (1,0)>]>, initial_value = 3>]>, operandSegmentSizes = array<i32: 2, 0>}> : (tensor<64x32xbf16, #sharded>, tensor<64x32xbf16, #sharded>) -> ()
  return
}
// BAD: generic_bad.mlir:8:3: error: 'ttnn.generic' op Address of tensor at index is out of bounds
