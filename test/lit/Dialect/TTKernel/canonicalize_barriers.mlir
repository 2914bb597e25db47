// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// A NoC barrier that an identical earlier barrier already passed, with no transfer it waits for issued since,
// goes; a transfer of its kind, another NoC, or a loop between them keeps it. Back-to-back stalls are one.

// CHECK-LABEL: func.func @reads
// CHECK: ttkernel.noc_async_read_barrier(%arg0)
// CHECK-NEXT: ttkernel.noc_async_write_barrier(%arg0)
// CHECK-NEXT: ttkernel.noc_async_read_barrier(%arg1)
// CHECK-NEXT: ttkernel.noc_async_read bank[
// CHECK-NEXT: ttkernel.noc_async_read_barrier(%arg0)
// CHECK-NEXT: return
func.func @reads(%n0: i8, %n1: i8, %bank: i32, %addr: i32, %l1: i32, %size: i32) {
  ttkernel.noc_async_read_barrier(%n0) : (i8) -> ()
  ttkernel.noc_async_write_barrier(%n0) : (i8) -> ()
  ttkernel.noc_async_read_barrier(%n0) : (i8) -> ()
  ttkernel.noc_async_read_barrier(%n1) : (i8) -> ()
  ttkernel.noc_async_read bank[%bank], %addr, %l1, %size : (i32, i32, i32, i32) -> ()
  ttkernel.noc_async_read_barrier(%n0) : (i8) -> ()
  return
}

// A write between two write barriers keeps the second; a read between them does not.
// CHECK-LABEL: func.func @writes
// CHECK: ttkernel.noc_async_write_barrier()
// CHECK-NEXT: ttkernel.noc_async_read core
// CHECK-NEXT: ttkernel.noc_async_write %
// CHECK-NEXT: ttkernel.noc_async_write_barrier()
// CHECK-NEXT: return
func.func @writes(%x: index, %y: index, %addr: i32, %l1: i32, %size: i32) {
  ttkernel.noc_async_write_barrier() : () -> ()
  ttkernel.noc_async_read core[%x, %y], %addr, %l1, %size : (index, index, i32, i32, i32) -> ()
  ttkernel.noc_async_write_barrier() : () -> ()
  ttkernel.noc_async_write %l1, core[%x, %y], %addr, %size : (i32, index, index, i32, i32) -> ()
  ttkernel.noc_async_write_barrier() : () -> ()
  return
}

// CHECK-LABEL: func.func @across_a_loop
// CHECK: ttkernel.noc_async_read_barrier()
// CHECK: scf.for
// CHECK: }
// CHECK-NEXT: ttkernel.noc_async_read_barrier()
// CHECK-NEXT: ttkernel.experimental.unpack_stall_on_pack
// CHECK-NEXT: return
func.func @across_a_loop(%lb: index, %ub: index) {
  ttkernel.noc_async_read_barrier() : () -> ()
  scf.for %i = %lb to %ub step %ub {
    ttkernel.tile_regs_acquire() : () -> ()
  }
  ttkernel.noc_async_read_barrier() : () -> ()
  ttkernel.experimental.unpack_stall_on_pack
  ttkernel.experimental.unpack_stall_on_pack
  return
}
