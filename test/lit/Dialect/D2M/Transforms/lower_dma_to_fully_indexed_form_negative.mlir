// RUN: not ttmlir-opt --split-input-file --ttcore-register-device --d2m-lower-dma-to-fully-indexed-form %s 2>&1 >/dev/null | FileCheck %s
// A transfer that already has a TensorAccessor page map is refused (only this pass gives one); a buffer whose grid
// has no 2-d factorization within the worker grid (67 cores) has no place to be read from.

!tile = !ttcore.tile<32x32, bf16>
#l1 = #ttcore.memory_space<l1>
func.func @premapped(%remote: memref<1x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>, %local: memref<1x1x!tile, #l1>) {
  %c0 = arith.constant 0 : index
  // CHECK: :[[# @LINE + 1]]:9: error: 'd2m.dma_read' op unexpected pre-existing TensorAccessor page map
  %tx = d2m.dma_read %remote[%c0, %c0], %local, <0> {tensorAccessorPageMap = affine_map<(d0, d1, d2, d3) -> (d0)>} : (memref<1x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>, memref<1x1x!tile, #l1>) -> !d2m.mem_tx<read>
  return
}

// -----

!tile = !ttcore.tile<32x32, bf16>
#l1 = #ttcore.memory_space<l1>
func.func @oversized(%remote: memref<67x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>, %local: memref<1x1x!tile, #l1>) {
  %c0 = arith.constant 0 : index
  // CHECK: :[[# @LINE + 1]]:9: error: a buffer on grid 67x1 has no placement on the 8x8 worker grid
  %tx = d2m.dma_read %remote[%c0, %c0], %local, <0> : (memref<67x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>, memref<1x1x!tile, #l1>) -> !d2m.mem_tx<read>
  return
}
