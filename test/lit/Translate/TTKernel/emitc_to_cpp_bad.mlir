// RUN: true
// Read by emitc_to_cpp.mlir: an op with no C++ form inside a kernel.
func.func @k() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %0 = memref.alloc() : memref<4xf32>
  return
}
