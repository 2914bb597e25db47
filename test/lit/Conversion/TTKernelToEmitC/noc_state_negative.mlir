// RUN: not ttmlir-opt --convert-ttkernel-to-emitc %s 2>&1 | FileCheck %s
// A stateful read names its NoC by a constant: the state belongs to a Noc object declared once.

func.func @dynamic_noc(%noc: i8) attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %x = arith.constant 1 : index
  %addr = arith.constant 8192 : i32
  %size = arith.constant 64 : i32
  // CHECK: error: dynamic NoC ID is not supported for stateful async read
  ttkernel.noc_async_read_one_packet_set_state(core[%x, %x], %addr, %size, noc %noc) : (index, index, i32, i32, i8) -> ()
  return
}
