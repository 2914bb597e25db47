// RUN: not ttmlir-opt %s 2>&1 | FileCheck %s
// A block tilize writes tiles from scalars.

#l1 = #ttcore.memory_space<l1>
func.func @tilize_into_scalars(%in: memref<32x32xf32, #l1>, %out: memref<32x32xf32, #l1>) {
  // CHECK: error: 'd2m.tile_tilize_block' op expects tiles as its output and scalars on the other side
  %r = "d2m.tile_tilize_block"(%in, %out) : (memref<32x32xf32, #l1>, memref<32x32xf32, #l1>) -> memref<32x32xf32, #l1>
  return
}
