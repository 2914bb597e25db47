// RUN: true
// Read by index_size_t.mlir: a ceiling division of indices has no emitc form.
func.func @ceil() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %q = arith.ceildivsi %c3, %c4 : index
  return
}
