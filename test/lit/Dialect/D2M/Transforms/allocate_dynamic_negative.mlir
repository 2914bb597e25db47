// RUN: true
// Input of allocate.mlir's negative RUN line: a device buffer whose size is only known at run time has no address.
// CHECK: allocate_dynamic_negative.mlir:5:8: error: a device buffer of dynamic shape cannot be given an address
func.func @dynamic(%n: index) {
  %0 = memref.alloc(%n) : memref<?x4x!ttcore.tile<32x32, f32>, #ttcore.memory_space<l1>>
  return
}
