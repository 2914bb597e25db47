// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// Semaphores of a data-movement kernel: a local set stores through an L1 pointer, a wait spins on it (and resets),
// an increment of another core goes to its NoC address in translated coordinates, and a multicast set writes this
// core's copy then multicasts it to the other cores of the rectangle. dm_core 1 drives NoC 0; the others NoC 1,
// which runs the other way, so the rectangle's corners swap.

// CHECK-LABEL: func.func private @signal
// CHECK: %[[SEM:.*]] = ttkernel.get_semaphore
// CHECK: %[[P:.*]] = ttkernel.reinterpret_cast(%[[SEM]]) : (!ttkernel.local_semaphore) -> !ttkernel.l1_addr_ptr
// CHECK-NEXT: ttkernel.experimental.semaphore_wait(%[[P]], %c3)
// CHECK-NEXT: ttkernel.noc_semaphore_set(%[[P]], %c0{{(_[0-9]+)?}})
// CHECK: %[[NOC:.*]] = arith.constant 1 : i8
// CHECK-NEXT: %[[Y:.*]] = ttkernel.experimental.convert_logical_y_to_translated(%c2) : (index) -> index
// CHECK-NEXT: %[[X:.*]] = ttkernel.experimental.convert_logical_x_to_translated(%c0{{(_[0-9]+)?}}) : (index) -> index
// CHECK-NEXT: %[[A:.*]] = ttkernel.get_noc_addr(%[[X]], %[[Y]], %[[SEM]], %[[NOC]])
// CHECK-NEXT: ttkernel.noc_semaphore_inc(%[[A]], %c1, %[[NOC]])
func.func private @signal() attributes {d2m.thread = #d2m.thread<datamovement>} {
  %sem = d2m.get_arg(0) : !d2m.local_semaphore
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  d2m.semaphore_wait %sem, %c3 reset %c0 : !d2m.local_semaphore
  d2m.semaphore_inc %sem, %c1, core[%c2, %c0] : !d2m.local_semaphore
  return
}

// CHECK-LABEL: func.func private @release_row
// CHECK: %[[SEM:.*]] = ttkernel.get_semaphore
// CHECK: %[[SY:.*]] = ttkernel.experimental.convert_logical_y_to_translated(%c1)
// CHECK: %[[SX:.*]] = ttkernel.experimental.convert_logical_x_to_translated(%c0{{(_[0-9]+)?}})
// CHECK: %[[LY:.*]] = arith.subi
// CHECK: %[[LX:.*]] = arith.subi
// CHECK: %[[EY:.*]] = ttkernel.experimental.convert_logical_y_to_translated(%[[LY]])
// CHECK: %[[EX:.*]] = ttkernel.experimental.convert_logical_x_to_translated(%[[LX]])
// CHECK: %[[N:.*]] = arith.muli %c1, %c8 : index
// CHECK: %[[N32:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK: %[[OTHERS:.*]] = arith.subi %[[N32]], %{{.*}} : i32
// CHECK: %[[NOC:.*]] = arith.constant 0 : i8
// CHECK: %[[M:.*]] = ttkernel.get_noc_multicast_addr(%[[SX]], %[[SY]], %[[EX]], %[[EY]], %[[SEM]], %[[NOC]])
// CHECK: %[[P:.*]] = ttkernel.reinterpret_cast(%[[SEM]])
// CHECK: ttkernel.noc_semaphore_set(%[[P]], %c1)
// CHECK: ttkernel.noc_semaphore_set_multicast(%[[SEM]], %[[M]], %[[OTHERS]])
// CHECK-LABEL: func.func private @release_row_noc1
// CHECK: ttkernel.get_noc_multicast_addr(%[[EX:[0-9]+]], %[[EY:[0-9]+]], %[[SX:[0-9]+]], %[[SY:[0-9]+]],
func.func private @release_row() attributes {d2m.thread = #d2m.thread<datamovement, dm_core = 1>} {
  %sem = d2m.get_arg(0) : !d2m.local_semaphore
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  d2m.semaphore_set %sem, %c1, core[%c1, %c0] mcast[%c1, %c8] : !d2m.local_semaphore
  return
}
func.func private @release_row_noc1() attributes {d2m.thread = #d2m.thread<datamovement, dm_core = 0>} {
  %sem = d2m.get_arg(0) : !d2m.local_semaphore
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  d2m.semaphore_set %sem, %c1, core[%c1, %c0] mcast[%c1, %c8] : !d2m.local_semaphore
  return
}
