// RUN: ttmlir-opt --split-input-file --ttcore-register-device --convert-d2m-to-ttnn --mlir-print-local-scope %s | FileCheck %s
// RUN: not ttmlir-opt --split-input-file --ttcore-register-device "--convert-d2m-to-ttnn=math-fidelity=Exact" %s 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: ttmlir-opt --split-input-file --ttcore-register-device "--d2m-to-ttnn-pipeline=set-math-fidelity=LoFi" %s | FileCheck %s --check-prefix=PIPELINE
// convert-d2m-to-ttnn: a bufferized generic whose kernels are ttkernel functions becomes a ttnn.generic. Its L1
// output buffer becomes a ttnn.empty (block-sharded on its grid); a CB aliasing an operand's shard is bound to
// that tensor, one of its own is sized from its tiles and buffers; a scalar additional arg is passed to the
// ttnn.generic and named by position; local semaphores become the program's, numbered in operand order.

// OPTION: error: math-fidelity is one of LoFi, HiFi2, HiFi3, HiFi4, not 'Exact'
// d2m-to-ttnn-pipeline runs the conversion at its set-math-fidelity:
// PIPELINE-LABEL: func.func @scale
// PIPELINE: "ttnn.generic"{{.*}}#ttnn.compute_kernel<symbol_ref = @compute, {{.*}}math_fidelity = lofi,

!dram = memref<1x1x2x2x!ttcore.tile<32x32, bf16>, #ttcore.interleaved<4096x2048>, #ttcore.memory_space<dram>>
!l1 = memref<2x2x1x1x!ttcore.tile<32x32, bf16>, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
!cb = memref<1x1x!ttcore.tile<32x32, bf16>, #ttcore.cb_layout<2048x2048, 2>, #ttcore.memory_space<l1>>
!alias = memref<1x1x!ttcore.tile<32x32, bf16>, #ttcore.cb_layout<2048x2048, 1>, #ttcore.memory_space<l1>>
!t = tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>

// CHECK-LABEL: func.func @scale
// CHECK: %[[DEV:.*]] = "ttnn.get_device"
// CHECK: %[[OUT:.*]] = "ttnn.empty"(%[[DEV]]) {{.*}}shape = #ttnn.shape<64x64>}> : (!ttnn.device) -> tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x2>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (1,1)>]>>>
// CHECK: "ttnn.generic"(%arg0, %[[OUT]], %arg1) <{operandSegmentSizes = array<i32: 2, 1>
// CHECK-SAME: #ttnn.data_movement_kernel<symbol_ref = @reader, core_ranges = <[#ttnn.core_range<(0,0), (1,1)>]>, processor = riscv1, noc_index = noc0, noc_mode = dedicated_noc, ct_args = [#ttnn.kernel_arg_cb_buffer_index<0>, #ttnn.kernel_arg_semaphore_at<0>], common_rt_args = [#ttnn.kernel_arg_address_of_tensor<0>], rt_args = []>
// CHECK-SAME: #ttnn.compute_kernel<symbol_ref = @compute, core_ranges = <[#ttnn.core_range<(0,0), (1,1)>]>, math_fidelity = hifi4,
// CHECK-SAME: ct_args = [#ttnn.kernel_arg_cb_buffer_index<0>, #ttnn.kernel_arg_cb_buffer_index<1>], common_rt_args = [#ttnn.kernel_arg_scalar<2>]
// CHECK-SAME: cbs = [<total_size = 4096, core_ranges = <[#ttnn.core_range<(0,0), (1,1)>]>, formats = [<buffer_index = 0, dtype = bf16, page_size = 2048>]>,
// CHECK-SAME: <total_size = 2048, core_ranges = <[#ttnn.core_range<(0,0), (1,1)>]>, formats = [<buffer_index = 1, dtype = bf16, page_size = 2048>], buffer = #ttnn.kernel_cb_global_buffer_address_of_tensor<1>>]
// CHECK-SAME: semaphores = [<id = 0, core_type = worker, core_ranges = <[#ttnn.core_range<(0,0), (1,1)>]>, initial_value = 0>]
// CHECK-NOT: d2m.
// CHECK-NOT: memref.
// CHECK: return %[[OUT]]
func.func @scale(%arg0: !t, %arg1: i32) -> tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x2>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (1,1)>]>>> {
  %in = ttir.ttnn_metal_layout_cast %arg0 : !t -> !dram
  %view = d2m.view_layout %in remapping = affine_map<(d0, d1, d2, d3) -> (0, 0, d0, d1)> : !dram -> memref<2x2x1x1x!ttcore.tile<32x32, bf16>, #ttcore.view<4>, #ttcore.memory_space<dram>>
  %out = memref.alloc() {address = 103712 : i64, alignment = 16 : i64} : !l1
  %cb = memref.alloc() {address = 105760 : i64, alignment = 16 : i64} : !cb
  %alias = d2m.operand_alias %out : !l1 -> !alias
  %sem = d2m.create_local_semaphore <{initialValue = 0 : ui32}> -> !d2m.local_semaphore
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement, @reader, dm_core = 1>, #d2m.thread<compute, @compute>]}
      ins(%view : memref<2x2x1x1x!ttcore.tile<32x32, bf16>, #ttcore.view<4>, #ttcore.memory_space<dram>>)
      outs(%out : !l1)
      additionalArgs(%cb, %alias, %arg1, %sem : !cb, !alias, i32, !d2m.local_semaphore)
  %back = ttir.ttnn_metal_layout_cast %out : !l1 -> tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x2>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (1,1)>]>>>
  return %back : tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x2>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (1,1)>]>>>
}
func.func private @reader() attributes {tt.function_type = "kernel", ttkernel.arg_spec = #ttkernel.arg_spec<rt_args = [<arg_type = buffer_address, operand_index = 0>] ct_args = [<arg_type = cb_port, operand_index = 2>, <arg_type = local_semaphore, operand_index = 5>]>, ttkernel.thread = #ttkernel.thread<noc>} {
  return
}
func.func private @compute() attributes {tt.function_type = "kernel", ttkernel.arg_spec = #ttkernel.arg_spec<rt_args = [<arg_type = scalar, operand_index = 4>] ct_args = [<arg_type = cb_port, operand_index = 2>, <arg_type = cb_port, operand_index = 3>]>, ttkernel.thread = #ttkernel.thread<compute>} {
  return
}
