// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// The ttmetal verifiers, in upstream's words where upstream has them.

#l1 = #ttcore.memory_space<l1>
#system = #ttcore.memory_space<system>
func.func @write_to_host(%arg0: memref<32x32xf32>) {
  %0 = memref.alloc() : memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #system>
  // expected-error @+1 {{'ttmetal.enqueue_write_buffer' op Output tensor must be in device memory space}}
  "ttmetal.enqueue_write_buffer"(%arg0, %0) : (memref<32x32xf32>, memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #system>) -> ()
  return
}

// -----

#l1 = #ttcore.memory_space<l1>
func.func @read_to_device(%arg0: memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  // expected-error @+1 {{'ttmetal.enqueue_read_buffer' op Output tensor must be in system memory space}}
  "ttmetal.enqueue_read_buffer"(%arg0, %arg0) : (memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>, memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) -> ()
  return
}

// -----

#system = #ttcore.memory_space<system>
func.func @host_operand(%arg0: memref<32x32xf32, #system>) {
  // expected-error @+1 {{'ttmetal.enqueue_program' op Operand tensor to EnqueueProgramOp must be in device memory space}}
  "ttmetal.enqueue_program"(%arg0) <{cb_ports = array<i64>, kernelConfigs = [], operandSegmentSizes = array<i32: 1, 0>}> : (memref<32x32xf32, #system>) -> ()
  return
}

// -----

#l1 = #ttcore.memory_space<l1>
func.func @fabric_index(%arg0: memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  // expected-error @+1 {{'ttmetal.enqueue_program' op fabric_config_index 2 is out of range for fabricConnectionConfigs of size 0}}
  "ttmetal.enqueue_program"(%arg0) <{cb_ports = array<i64>, kernelConfigs = [#ttmetal.noc_config<@k, #ttmetal.core_range<0x0, 1x1>, #ttmetal.kernel_args< >, dm_core = 0, noc0, fabric_config_index = 2>], operandSegmentSizes = array<i32: 1, 0>}> : (memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) -> ()
  return
}

// -----

#l1 = #ttcore.memory_space<l1>
func.func @arg_index(%arg0: memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  // expected-error @+1 {{'ttmetal.enqueue_program' op kernel @k rt_args binds buffer_address[3], but the program has 1 operand(s)}}
  "ttmetal.enqueue_program"(%arg0) <{cb_ports = array<i64>, kernelConfigs = [#ttmetal.compute_config<@k, #ttmetal.core_range<0x0, 1x1>, #ttmetal.kernel_args< rt_args = [<buffer_address[3]>] >, hifi4, false, false, false, [default]>], operandSegmentSizes = array<i32: 1, 0>}> : (memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) -> ()
  return
}

// -----

func.func @bad_arg_type() attributes {args = #ttmetal.kernel_args< ct_args = [<
  // expected-error @+1 {{expected a kernel argument type (cb_port, buffer_address, local_semaphore, named_argument, global_semaphore, scalar, tensor_accessor_args), got 'cb_slot'}}
  cb_slot[0]>]>} {
  return
}
