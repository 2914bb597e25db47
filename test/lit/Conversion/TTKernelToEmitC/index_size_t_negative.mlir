// RUN: true
// Read by index_size_t.mlir: a loop over indices carrying a value has no emitc.for to become.
func.func @carried() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %sum = scf.for %i = %c0 to %c4 step %c4 iter_args(%acc = %c0) -> (index) {
    %next = arith.addi %acc, %i : index
    scf.yield %next : index
  }
  return
}
