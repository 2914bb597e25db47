// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel="force-compile-time-args=true" %s | FileCheck %s --check-prefix=CT
// A kernel function's d2m.get_arg reads the kernel argument its type makes it: a buffer's address (i32), a CB for a
// memref with a #ttcore.cb_layout, a global semaphore's L1 address, a local semaphore's id (then get_semaphore),
// a scalar's ui32 slot (bitcast to its type). The arg spec lists them by kind, then operand index.

#l1 = #ttcore.memory_space<l1>

// CHECK-LABEL: func.func private @reader
// CHECK-SAME: rt_args = [<arg_type = cb_port, operand_index = 4>, <arg_type = buffer_address, operand_index = 0>, <arg_type = local_semaphore, operand_index = 2>, <arg_type = global_semaphore, operand_index = 3>, <arg_type = scalar, operand_index = 1>, <arg_type = scalar, operand_index = 5>]
// CHECK: %[[I1:.*]] = arith.constant 1 : index
// CHECK-NEXT: ttkernel.get_common_arg_val(%[[I1]]) : (index) -> i32
// CHECK: %[[I5:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[F:.*]] = ttkernel.get_common_arg_val(%[[I5]]) : (index) -> ui32
// CHECK-NEXT: ttkernel.bitcast %[[F]] : ui32 to f32
// CHECK: %[[I2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[ID:.*]] = ttkernel.get_common_arg_val(%[[I2]]) : (index) -> i32
// CHECK-NEXT: ttkernel.get_semaphore(%[[ID]]) : (i32) -> !ttkernel.local_semaphore
// CHECK: %[[I3:.*]] = arith.constant 3 : index
// CHECK-NEXT: ttkernel.get_common_arg_val(%[[I3]]) : (index) -> !ttkernel.l1_addr
// CHECK: %[[I4:.*]] = arith.constant 4 : index
// CHECK-NEXT: ttkernel.get_common_arg_val(%[[I4]]) : (index) -> ui32
// CHECK-NOT: ttkernel.bitcast
// CHECK: %[[I0:.*]] = arith.constant 0 : index
// CHECK-NEXT: ttkernel.get_common_arg_val(%[[I0]]) : (index) -> !ttkernel.cb<8, !ttcore.tile<32x32, bf16>>
// CT-LABEL: func.func private @reader
// CT-SAME: ct_args = [<arg_type = cb_port, operand_index = 4>, <arg_type = buffer_address, operand_index = 0>
// CT: ttkernel.get_compile_time_arg_val(1) : () -> i32
// CT: ttkernel.get_compile_time_arg_val(5) : () -> ui32
// CT: ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<8, !ttcore.tile<32x32, bf16>>
// CT-NOT: get_common_arg_val
func.func private @reader() attributes {d2m.thread = #d2m.thread<datamovement>} {
  %buf = d2m.get_arg(0) : memref<1x1x2x4x!ttcore.tile<32x32, bf16>, #ttcore.shard<8192x2048, 1>, #l1>
  %f = d2m.get_arg(5) : f32
  %sem = d2m.get_arg(2) : !d2m.local_semaphore
  %gsem = d2m.get_arg(3) : !d2m.global_semaphore
  %n = d2m.get_arg(1) : ui32
  %scratch = d2m.get_arg(4) : memref<2x4x!ttcore.tile<32x32, bf16>, #ttcore.cb_layout<8192x2048, 1>, #l1>
  return
}

// A kernel that already has an arg spec keeps it; the args its D2M ops read are added (runtime ones after its
// own, compile-time ones sorted in, the reads of those already there renumbered).
// CHECK-LABEL: func.func private @specced
// CHECK-SAME: #ttkernel.arg_spec<rt_args = [<arg_type = cb_port, operand_index = 0>] ct_args = [<arg_type = buffer_address, operand_index = 1>]>
// CHECK: ttkernel.get_compile_time_arg_val(0) : () -> i32
// CHECK: ttkernel.get_common_arg_val(%{{.*}}) : (index) -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
// CT-LABEL: func.func private @specced
// CT-SAME: ct_args = [<arg_type = cb_port, operand_index = 0>, <arg_type = buffer_address, operand_index = 1>]
// CT: ttkernel.get_compile_time_arg_val(1) : () -> i32
// CT: ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
func.func private @specced() attributes {ttkernel.arg_spec = #ttkernel.arg_spec<ct_args = [<arg_type = buffer_address, operand_index = 1>]>, ttkernel.thread = #ttkernel.thread<noc>} {
  %a = ttkernel.get_compile_time_arg_val(0) : () -> i32
  %cb = d2m.get_cb(0) : !d2m.cb<memref<1x!ttcore.tile<32x32, f32>, #l1>>
  return
}

// A memref of the core's own (no device layout) is a circular buffer too; two operands sharing a physical CB port
// (`d2m.physical_cb_ports`) are one cb_port argument, read through that port.
// CHECK-LABEL: func.func private @shared_ports
// CHECK-SAME: rt_args = [<arg_type = cb_port, operand_index = 0>, <arg_type = cb_port, operand_index = 1>, <arg_type = buffer_address, operand_index = 3>]
// CHECK: %[[P1:.*]] = arith.constant 1 : index
// CHECK-NEXT: ttkernel.get_common_arg_val(%[[P1]]) : (index) -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
// CHECK-NEXT: %[[P1B:.*]] = arith.constant 1 : index
// CHECK-NEXT: ttkernel.get_common_arg_val(%[[P1B]]) : (index) -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
// CHECK-NEXT: %[[P0:.*]] = arith.constant 0 : index
// CHECK-NEXT: ttkernel.get_common_arg_val(%[[P0]]) : (index) -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
// CHECK-NEXT: %[[A:.*]] = arith.constant 2 : index
// CHECK-NEXT: ttkernel.get_common_arg_val(%[[A]]) : (index) -> i32
func.func private @shared_ports() attributes {d2m.physical_cb_ports = array<i64: 0, 1, 1, 3>, d2m.thread = #d2m.thread<compute>} {
  %a = d2m.get_arg(1) : memref<1x1x!ttcore.tile<32x32, f32>, #l1>
  %b = d2m.get_arg(2) : memref<1x1x!ttcore.tile<32x32, f32>, #l1>
  %c = d2m.get_arg(0) : memref<1x1x!ttcore.tile<32x32, f32>, #l1>
  %d = d2m.get_arg(3) : memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
  return
}
