// RUN: ttmlir-opt --ttcore-register-device --d2m-lower-dma-to-fully-indexed-form %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --d2m-lower-dma-to-fully-indexed-form="use-tensor-accessor-dma=true" --mlir-print-local-scope %s | FileCheck %s --check-prefix=TA
// Shard-level DMA in fully indexed form: a shard contiguous in L1 moves as one transfer of all its tiles, the remote
// side [core y, core x, byte offset], the local side a byte offset; a DRAM shard read through a transposing view is
// walked tile by tile (each tile its own run), the transfers carried out of the loop nest; a multicast write moves
// its whole block. With use-tensor-accessor-dma a read of a generic's remote operand keeps its shard level and
// gets the page map of the tensor's pages (row-major over grid x shard).

!tile = !ttcore.tile<32x32, bf16>
#l1 = #ttcore.memory_space<l1>
#dram = #ttcore.memory_space<dram>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#swap = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>

// CHECK-LABEL: func.func @l1_shard
// CHECK: %[[Y:.*]] = d2m.core_index(0)
// CHECK: %[[X:.*]] = d2m.core_index(1)
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[OFF:.*]] = affine.apply #{{.*}}(%[[Y]], %[[X]], %[[Z]], %[[Z]])
// CHECK-NEXT: %[[LOC:.*]] = arith.constant 0 : index
// CHECK-NEXT: %tx = d2m.dma_read %arg0[%[[Y]], %[[X]], %[[OFF]]], %{{.*}}[%[[LOC]]], <6>
// CHECK-NEXT: d2m.dma_wait %tx
// TA-LABEL: func.func @l1_shard
// TA: d2m.dma_read %arg0[%{{.*}}, %{{.*}}], %{{.*}}, <0> {tensorAccessorPageMap = affine_map<(d0, d1, d2, d3) -> (d0 * 12 + d1 * 3 + d2 * 6 + d3)>}
func.func @l1_shard(%in: memref<2x2x2x3x!tile, #ttcore.shard<6144x2048, 1>, #l1>, %out: memref<2x2x2x3x!tile, #ttcore.shard<6144x2048, 1>, #l1>) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%in : memref<2x2x2x3x!tile, #ttcore.shard<6144x2048, 1>, #l1>)
      outs(%out : memref<2x2x2x3x!tile, #ttcore.shard<6144x2048, 1>, #l1>) {
  ^datamovement0:
    %cb = d2m.get_cb(0) : !d2m.cb<memref<2x3x!tile, #l1>>
    %y = d2m.core_index(0) : index
    %x = d2m.core_index(1) : index
    %block = d2m.reserve %cb : <memref<2x3x!tile, #l1>> -> memref<2x3x!tile, #l1>
    %tx = d2m.dma_read %in[%y, %x], %block, <0> : (memref<2x2x2x3x!tile, #ttcore.shard<6144x2048, 1>, #l1>, memref<2x3x!tile, #l1>) -> !d2m.mem_tx<read>
    d2m.dma_wait %tx : !d2m.mem_tx<read>
    d2m.push %cb : <memref<2x3x!tile, #l1>>
  }
  return
}

// The view swaps the shard's rows and columns: consecutive tiles of the block are a row apart in DRAM.
// CHECK-LABEL: func.func @dram_transposed
// CHECK: %[[NULL:.*]] = d2m.null_tx : !d2m.mem_tx<read>
// CHECK: %[[ALL:.*]] = scf.for %{{.*}} iter_args(%[[A:.*]] = %[[NULL]]) -> (!d2m.mem_tx<read>)
// CHECK: scf.for %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (!d2m.mem_tx<read>)
// CHECK: %[[START:.*]] = arith.cmpi eq
// CHECK: scf.if %[[START]] -> (!d2m.mem_tx<read>)
// CHECK: %tx = d2m.dma_read %view[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], <1>
// CHECK-NEXT: scf.yield %tx
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[B]]
// CHECK: d2m.dma_wait %[[ALL]]
// TA-LABEL: func.func @dram_transposed
// TA: d2m.dma_read %view[%{{.*}}, %{{.*}}], %{{.*}}, <0> {tensorAccessorPageMap = affine_map<(d0, d1, d2, d3) -> (d0 * 8 + d1 * 2 + d2 + d3 * 4)>}
func.func @dram_transposed(%in: memref<2x2x2x2x!tile, #ttcore.shard<4096x2048, 1>, #dram>, %out: memref<2x2x2x2x!tile, #ttcore.shard<4096x2048, 1>, #l1>) {
  %view = d2m.view_layout %in remapping = #swap : memref<2x2x2x2x!tile, #ttcore.shard<4096x2048, 1>, #dram> -> memref<2x2x2x2x!tile, #ttcore.view<4>, #dram>
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%view : memref<2x2x2x2x!tile, #ttcore.view<4>, #dram>)
      outs(%out : memref<2x2x2x2x!tile, #ttcore.shard<4096x2048, 1>, #l1>) {
  ^datamovement0:
    %cb = d2m.get_cb(0) : !d2m.cb<memref<2x2x!tile, #l1>>
    %y = d2m.core_index(0) : index
    %x = d2m.core_index(1) : index
    %block = d2m.reserve %cb : <memref<2x2x!tile, #l1>> -> memref<2x2x!tile, #l1>
    %tx = d2m.dma_read %view[%y, %x], %block, <0> : (memref<2x2x2x2x!tile, #ttcore.view<4>, #dram>, memref<2x2x!tile, #l1>) -> !d2m.mem_tx<read>
    d2m.dma_wait %tx : !d2m.mem_tx<read>
    d2m.push %cb : <memref<2x2x!tile, #l1>>
  }
  return
}

// CHECK-LABEL: func.func @mcast_write
// CHECK: arith.constant 2 : index
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[LOC:.*]] = arith.constant 0 : index
// CHECK-NEXT: d2m.dma_write %{{.*}}[%[[LOC]]], %{{.*}}[%[[LOC]]] core[%{{.*}}, %{{.*}}] mcast[%{{.*}}, %{{.*}}], <4>
func.func @mcast_write(%local: memref<2x2x!tile, #l1>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %tx = d2m.dma_write %local, %local core[%c0, %c0] mcast[%c2, %c2], <0> : (memref<2x2x!tile, #l1>, memref<2x2x!tile, #l1>) -> !d2m.mem_tx<mcast_write>
  d2m.dma_wait %tx : !d2m.mem_tx<mcast_write>
  return
}

// A 16x1 grid has no room on the 8x8 worker grid as it is: upstream's virtual grid places it row-major on 4x4
// cores, so virtual core (5, 0) is core (1, 1).
// CHECK-LABEL: func.func @virtual_grid
// CHECK: %[[Y:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[X:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[OFF:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[LOC:.*]] = arith.constant 0 : index
// CHECK-NEXT: d2m.dma_read %arg0[%[[Y]], %[[X]], %[[OFF]]], %arg1[%[[LOC]]], <2>
func.func @virtual_grid(%remote: memref<16x1x1x2x!tile, #ttcore.shard<4096x2048, 1>, #l1>, %local: memref<1x2x!tile, #l1>) {
  %c5 = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  %tx = d2m.dma_read %remote[%c5, %c0], %local, <0> : (memref<16x1x1x2x!tile, #ttcore.shard<4096x2048, 1>, #l1>, memref<1x2x!tile, #l1>) -> !d2m.mem_tx<read>
  return
}
