// RUN: ttmlir-opt --split-input-file %s | FileCheck %s

// Kernel and program configurations print in their struct form, fields in declaration order.
// CHECK: test.compute = #ttnn.device_compute_kernel_config<math_fidelity = hifi2, fp32_dest_acc_en = true>
// CHECK-SAME: test.conv = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = false, shard_layout = height_sharded, core_grid = #ttnn.core_range_set<>, output_layout = tile>
// CHECK-SAME: test.empty = #ttnn.device_compute_kernel_config<>
// CHECK-SAME: test.program = #ttnn.matmul_multi_core_reuse_multi_cast_dram_sharded_program_config<in0_block_w = 2, per_core_m = 1, per_core_n = 4, fused_activation = #ttnn.unary_with_param<op_type = relu>>
module attributes {test.compute = #ttnn.device_compute_kernel_config<fp32_dest_acc_en = true, math_fidelity = hifi2>,
                   test.conv = #ttnn.conv2d_config<output_layout = tile, weights_dtype = bf16, deallocate_activation = false, shard_layout = height_sharded, core_grid = #ttnn.core_range_set<>>,
                   test.empty = #ttnn.device_compute_kernel_config<>,
                   test.program = #ttnn.matmul_multi_core_reuse_multi_cast_dram_sharded_program_config<in0_block_w = 2, per_core_m = 1, per_core_n = 4, fused_activation = #ttnn.unary_with_param<op_type = relu>>} {
}
