// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s
// A scalar kernel argument's ui32 slot read as its type (an integer converts; an f32's bits are copied), a
// semaphore wait and logical-to-translated coordinates as tt-metal's experimental calls, a typecast with its
// formats as template arguments.

// CHECK-LABEL: void kernel_main
// CHECK: uint32_t [[W:.*]] = get_common_arg_val<uint32_t>
// CHECK: int32_t {{.*}} = (int32_t) [[W]];
// CHECK: uint32_t bitcast_0_src = {{.*}}; float bitcast_0; __builtin_memcpy(&bitcast_0, &bitcast_0_src, sizeof(bitcast_0));
// CHECK: experimental::convert_logical_x_to_translated(
// CHECK: experimental::semaphore_wait(
func.func @reader() attributes {ttkernel.arg_spec = #ttkernel.arg_spec<rt_args = [<arg_type = scalar, operand_index = 0>, <arg_type = scalar, operand_index = 1>]>, ttkernel.thread = #ttkernel.thread<noc>} {
  %c0 = arith.constant 0 : index
  %w = ttkernel.get_common_arg_val(%c0) : (index) -> ui32
  %i = ttkernel.bitcast %w : ui32 to i32
  %c1 = arith.constant 1 : index
  %v = ttkernel.get_common_arg_val(%c1) : (index) -> ui32
  %f = ttkernel.bitcast %v : ui32 to f32
  %x = ttkernel.experimental.convert_logical_x_to_translated(%c1) : (index) -> index
  %s = ttkernel.get_semaphore(%c0) : (index) -> !ttkernel.local_semaphore
  %p = ttkernel.reinterpret_cast(%s) : (!ttkernel.local_semaphore) -> !ttkernel.l1_addr_ptr
  ttkernel.experimental.semaphore_wait(%p, %c1) : (!ttkernel.l1_addr_ptr, index) -> ()
  return
}

// CHECK-LABEL: void kernel_main
// CHECK: typecast_tile_init<static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Float32), static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Float16_b)>();
// CHECK: typecast_tile<static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Float32), static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Float16_b)>(
func.func @cast() attributes {ttkernel.arg_spec = #ttkernel.arg_spec<>, ttkernel.thread = #ttkernel.thread<compute>} {
  %c0 = arith.constant 0 : index
  ttkernel.typecast_tile_init(<f32>, <bf16>) : () -> ()
  ttkernel.typecast_tile(%c0, <f32>, <bf16>) : (index) -> ()
  return
}

// CHECK-LABEL: void kernel_main
// CHECK: binary_dest_reuse_tiles_init<EltwiseBinaryType::ELWMUL, EltwiseBinaryReuseDestType::DEST_TO_SRCB>(
// CHECK: binary_dest_reuse_tiles<EltwiseBinaryType::ELWMUL, EltwiseBinaryReuseDestType::DEST_TO_SRCB>(
func.func @reuse() attributes {ttkernel.arg_spec = #ttkernel.arg_spec<rt_args = [<arg_type = cb_port, operand_index = 0>]>, ttkernel.thread = #ttkernel.thread<compute>} {
  %c0 = arith.constant 0 : index
  %cb = ttkernel.get_common_arg_val(%c0) : (index) -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
  ttkernel.binary_dest_reuse_tiles_init(%cb, <mul>, <dest_to_srcb>) : (!ttkernel.cb<1, !ttcore.tile<32x32, f32>>) -> ()
  ttkernel.binary_dest_reuse_tiles(%cb, %c0, %c0, <mul>, <dest_to_srcb>) : (!ttkernel.cb<1, !ttcore.tile<32x32, f32>>, index, index) -> ()
  return
}

// CHECK-LABEL: void kernel_main
// CHECK: fill_tile_int<DataFormat::Int32>(
// CHECK: sfpu_reduce_init<PoolType::SUM, DataFormat::Int32>();
// CHECK: sfpu_reduce<PoolType::SUM, DataFormat::Int32, ReduceDim::REDUCE_COL>(
// CHECK: add_int_tile<DataFormat::Int32>(
func.func @int_reduce() attributes {ttkernel.arg_spec = #ttkernel.arg_spec<>, ttkernel.thread = #ttkernel.thread<compute>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  ttkernel.fill_tile_init() : () -> ()
  ttkernel.fill_tile_int(%c0, %z) : (index, i32) -> ()
  ttkernel.sfpu_reduce_init(<reduce_sum>, <si32>) : () -> ()
  ttkernel.sfpu_reduce(%c1, <reduce_sum>, <si32>, <reduce_dim_col>) : (index) -> ()
  ttkernel.add_int_tile_init() : () -> ()
  ttkernel.add_int_tile(%c1, %c0, %c0, <si32>) : (index, index, index) -> ()
  return
}
