// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// A host program of the Metal path: buffers at fixed addresses, a write, a launch of three kernels
// (two data movement, one compute) with their argument bindings, a read back, frees and a finish.

#l1 = #ttcore.memory_space<l1>
#system = #ttcore.memory_space<system>
// CHECK-LABEL: func.func @add
func.func @add(%arg0: memref<64x128xf32>) -> memref<64x128xf32> {
  // CHECK: %[[IN:.*]] = "ttmetal.create_buffer"() <{address = 103712 : i64}> : () -> memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
  %0 = "ttmetal.create_buffer"() <{address = 103712 : i64}> : () -> memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
  %1 = "ttmetal.create_buffer"() <{address = 107808 : i64}> : () -> memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
  // CHECK: "ttmetal.enqueue_write_buffer"(%arg0, %[[IN]])
  "ttmetal.enqueue_write_buffer"(%arg0, %0) : (memref<64x128xf32>, memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) -> ()
  // CHECK: "ttmetal.enqueue_program"(%[[IN]], %{{.*}}, %[[IN]], %{{.*}}) <{cb_ports = array<i64: 0, 1>, kernelConfigs = [#ttmetal.noc_config<@reader, #ttmetal.core_range<0x0, 2x4>, #ttmetal.kernel_args< ct_args = [<cb_port[0]>]>, dm_core = 1, noc0>, #ttmetal.noc_config<@writer, #ttmetal.core_range<0x0, 2x4>, #ttmetal.kernel_args<common_rt_args = [<buffer_address[1]>]  ct_args = [<cb_port[1]>]>, dm_core = 0, noc1>, #ttmetal.compute_config<@compute, #ttmetal.core_range<0x0, 2x4>, #ttmetal.kernel_args< ct_args = [<cb_port[0]>, <cb_port[1]>]>, hifi4, true, false, false, [default]>], operandSegmentSizes = array<i32: 2, 2>}>
  "ttmetal.enqueue_program"(%0, %1, %0, %1) <{cb_ports = array<i64: 0, 1>, kernelConfigs = [#ttmetal.noc_config<@reader, #ttmetal.core_range<0x0, 2x4>, #ttmetal.kernel_args< ct_args = [<cb_port[0]>]>, dm_core = 1, noc0>, #ttmetal.noc_config<@writer, #ttmetal.core_range<0x0, 2x4>, #ttmetal.kernel_args<common_rt_args = [<buffer_address[1]>]  ct_args = [<cb_port[1]>]>, dm_core = 0, noc1>, #ttmetal.compute_config<@compute, #ttmetal.core_range<0x0, 2x4>, #ttmetal.kernel_args< ct_args = [<cb_port[0]>, <cb_port[1]>]>, hifi4, true, false, false, [default]>], operandSegmentSizes = array<i32: 2, 2>}> : (memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>, memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>, memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>, memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) -> ()
  %2 = memref.alloc() : memref<64x128xf32>
  // CHECK: "ttmetal.enqueue_read_buffer"
  "ttmetal.enqueue_read_buffer"(%1, %2) : (memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>, memref<64x128xf32>) -> ()
  // CHECK: "ttmetal.deallocate_buffer"
  "ttmetal.deallocate_buffer"(%0) : (memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) -> ()
  "ttmetal.deallocate_buffer"(%1) : (memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) -> ()
  // CHECK: "ttmetal.finish"() : () -> ()
  "ttmetal.finish"() : () -> ()
  return %2 : memref<64x128xf32>
}
