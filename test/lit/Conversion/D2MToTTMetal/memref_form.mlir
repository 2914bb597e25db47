// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel --convert-d2m-to-ttmetal %s | FileCheck %s
// A host function in memref form (buffers allocated, kernels made): each alloc a create_buffer at its address,
// semaphores ttmetal's, views dropped, and the generic a program of its ins/outs, then its semaphore and scalar
// args, with the CBs its kernels read (an alias CB is the aliased buffer) on ports in order; each kernel's args
// name those operands and ports.

#l1 = #ttcore.memory_space<l1>
!buf = memref<1x1x2x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<8192x2048, 1>, #l1>
!cbt = memref<2x2x!ttcore.tile<32x32, bf16>, #ttcore.cb_layout<8192x2048, 1>, #l1>

// CHECK-LABEL: func.func @program
// CHECK: %[[OUT:.*]] = "ttmetal.create_buffer"() <{address = 8192 : i64}>
// CHECK: %[[CB:.*]] = "ttmetal.create_buffer"() <{address = 16384 : i64}>
// CHECK: %[[SEM:.*]] = "ttmetal.create_local_semaphore"() <{initial_value = 0 : ui32}>
// CHECK-NOT: d2m.
// CHECK: "ttmetal.enqueue_program"(%arg0, %[[OUT]], %[[SEM]], %arg1, %[[CB]], %arg0)
// CHECK-SAME: cb_ports = array<i64: 0, 1>
// CHECK-SAME: #ttmetal.noc_config<@reader, #ttmetal.core_range<0x0, 1x1>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <buffer_address[0]>, <local_semaphore[2]>, <scalar[3]>]  >, dm_core = 1, noc0>
// CHECK-SAME: #ttmetal.compute_config<@compute, #ttmetal.core_range<0x0, 1x1>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <cb_port[1]>]  >, hifi4, false, false, false, [default]>
// CHECK-SAME: operandSegmentSizes = array<i32: 4, 2>
// CHECK: "ttmetal.deallocate_buffer"(%[[CB]])
func.func @program(%in: !buf, %n: ui32) -> !buf {
  %out = memref.alloc() {address = 8192 : i64, alignment = 16 : i64} : !buf
  %cb = memref.alloc() {address = 16384 : i64, alignment = 16 : i64} : !cbt
  %sem = d2m.create_local_semaphore <{initialValue = 0 : ui32}> -> !d2m.local_semaphore
  %view = d2m.view_layout %in remapping = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)> : !buf -> memref<1x1x2x2x!ttcore.tile<32x32, bf16>, #ttcore.view<4>, #l1>
  %alias = d2m.operand_alias %in : !buf -> !cbt
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement, @reader, dm_core = 1>, #d2m.thread<compute, @compute>]}
      ins(%view : memref<1x1x2x2x!ttcore.tile<32x32, bf16>, #ttcore.view<4>, #l1>)
      outs(%out : !buf)
      additionalArgs(%sem, %n, %cb, %alias : !d2m.local_semaphore, ui32, !cbt, !cbt)
  memref.dealloc %cb : !cbt
  return %out : !buf
}

func.func private @reader() attributes {d2m.thread = #d2m.thread<datamovement, dm_core = 1>} {
  %cb = d2m.get_cb(4) : !d2m.cb<!cbt>
  %b = d2m.get_arg(0) : !buf
  %s = d2m.get_arg(2) : !d2m.local_semaphore
  %n = d2m.get_arg(3) : ui32
  return
}

func.func private @compute() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb = d2m.get_cb(4) : !d2m.cb<!cbt>
  %cb2 = d2m.get_cb(5) : !d2m.cb<!cbt>
  return
}
