// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s
// CB reserve/push/wait/pop and pointers are methods of tt-metal's CircularBuffer objects, one per CB argument,
// declared once where the argument is read; the compute API's calls keep taking the CB's id. A pointer is written at
// its use (`cb.get_write_ptr()`, as upstream) unless a push or pop of its CB comes between: then it keeps the value it
// had where it was read. The headers are the thread's, the CircularBuffer's and the Noc API's, sorted.

// CHECK: #include <cstdint>
// CHECK-NEXT: #include "api/core_local_mem.h"
// CHECK-NEXT: #include "api/dataflow/circular_buffer.h"
// CHECK-NEXT: #include "api/dataflow/dataflow_api.h"
// CHECK-NEXT: #include "api/dataflow/endpoints.h"
// CHECK-NEXT: #include "api/dataflow/noc.h"
// CHECK: void kernel_main() {
// CHECK: uint32_t [[IN:v[0-9]+]] = get_common_arg_val<uint32_t>(
// CHECK-NEXT: CircularBuffer cb_arg_0([[IN]]);
// CHECK: CircularBuffer cb_ctarg_2(get_compile_time_arg_val(2));
// CHECK-NOT: CircularBuffer
// CHECK: cb_arg_0.reserve_back([[N:v[0-9]+]]);
// CHECK-NEXT: int32_t [[PTR:v[0-9]+]] = cb_arg_0.get_write_ptr();
// CHECK: cb_arg_0.push_back([[N]]);
// CHECK: noc0.async_read(unicast_ep, CoreLocalMem<uint32_t>([[PTR]])
// CHECK: cb_ctarg_2.wait_front([[N]]);
// CHECK-NEXT: cb_ctarg_2.pop_front([[N]]);
func.func @reader() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %c0 = arith.constant 0 : index
  %n = arith.constant 1 : i32
  %noc = arith.constant 0 : i8
  %in = ttkernel.get_common_arg_val(%c0) : (index) -> !ttkernel.cb<2, !ttcore.tile<32x32, bf16>>
  %out = ttkernel.get_compile_time_arg_val(2) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, bf16>>
  ttkernel.cb_reserve_back(%in, %n) : (!ttkernel.cb<2, !ttcore.tile<32x32, bf16>>, i32) -> ()
  %ptr = ttkernel.get_write_ptr(%in) : (!ttkernel.cb<2, !ttcore.tile<32x32, bf16>>) -> i32
  ttkernel.cb_push_back(%in, %n) : (!ttkernel.cb<2, !ttcore.tile<32x32, bf16>>, i32) -> ()
  %x = arith.constant 1 : index
  %size = arith.constant 2048 : i32
  ttkernel.noc_async_read core[%x, %x], %size, %ptr, %size, noc %noc : (index, index, i32, i32, i32, i8) -> ()
  ttkernel.cb_wait_front(%out, %n) : (!ttkernel.cb<2, !ttcore.tile<32x32, bf16>>, i32) -> ()
  ttkernel.cb_pop_front(%out, %n) : (!ttkernel.cb<2, !ttcore.tile<32x32, bf16>>, i32) -> ()
  return
}

// CHECK: void kernel_main() {
// CHECK: cb_ctarg_0.reserve_back([[N:v[0-9]+]]);
// CHECK-NOT: get_write_ptr();
// CHECK: noc0.async_read(unicast_ep, CoreLocalMem<uint32_t>(cb_ctarg_0.get_write_ptr()), {{.*}});
// CHECK-NEXT: noc0.async_read_barrier();
// CHECK-NEXT: cb_ctarg_0.push_back([[N]]);
func.func @inline_pointer() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %n = arith.constant 1 : i32
  %noc = arith.constant 0 : i8
  %cb = ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, bf16>>
  ttkernel.cb_reserve_back(%cb, %n) : (!ttkernel.cb<2, !ttcore.tile<32x32, bf16>>, i32) -> ()
  %ptr = ttkernel.get_write_ptr(%cb) : (!ttkernel.cb<2, !ttcore.tile<32x32, bf16>>) -> i32
  %x = arith.constant 1 : index
  %size = arith.constant 2048 : i32
  ttkernel.noc_async_read core[%x, %x], %size, %ptr, %size, noc %noc : (index, index, i32, i32, i32, i8) -> ()
  ttkernel.noc_async_read_barrier(%noc) : (i8) -> ()
  ttkernel.cb_push_back(%cb, %n) : (!ttkernel.cb<2, !ttcore.tile<32x32, bf16>>, i32) -> ()
  return
}
