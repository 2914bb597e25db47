// RUN: ttmlir-opt --ttcore-register-device --d2m-expand-dma-read-composite-view %s | FileCheck %s
// A generic reading a composite view reads its inputs: the composite operand becomes the inputs (later CB indices
// shift by the extra ones), and the shard-level read becomes a loop over the block picking, per step, the input
// that holds the step's row/column (an scf.if chain on the inputs' cumulative extents, guarded when the composite
// is padded past them), each read waited for at once; the composite view and its views are gone.

!tile = !ttcore.tile<32x32, bf16>
#l1 = #ttcore.memory_space<l1>

// Three inputs of 1, 1 and 2 tile rows concatenated along dim 0 into 2x1 cores of 3 tile rows each (6 rows: padded).
// CHECK-LABEL: func.func @three_tiled
// CHECK-NOT: d2m.composite_view
// CHECK: ins(%arg0, %arg1, %arg2, %arg3 :
// CHECK: d2m.get_cb(4)
// CHECK: %[[ROW:.*]] = arith.addi
// CHECK: %[[TOTAL:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[ROW]], %[[TOTAL]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: %[[B1:.*]] = arith.constant 1 : index
// CHECK-NEXT: arith.cmpi ult, %[[ROW]], %[[B1]] : index
// CHECK: d2m.dma_read %arg0[{{.*}}], <1>
// CHECK-NEXT: d2m.dma_wait
// CHECK: } else {
// CHECK: %[[B2:.*]] = arith.constant 2 : index
// CHECK-NEXT: arith.cmpi ult, %[[ROW]], %[[B2]] : index
// CHECK: %[[S1:.*]] = arith.constant 1 : index
// CHECK-NEXT: arith.subi %[[ROW]], %[[S1]] : index
// CHECK: d2m.dma_read %arg1[{{.*}}], <1>
// CHECK: } else {
// CHECK: %[[S2:.*]] = arith.constant 2 : index
// CHECK-NEXT: arith.subi %[[ROW]], %[[S2]] : index
// CHECK: d2m.dma_read %arg2[{{.*}}], <1>
// CHECK: d2m.push
func.func @three_tiled(%a: memref<1x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>,
                       %b: memref<1x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>,
                       %c: memref<1x1x2x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>,
                       %side: memref<2x1x3x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>,
                       %out: memref<2x1x3x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>) {
  %cat = "d2m.composite_view"(%a, %b, %c) <{dim = 0 : si32}> : (memref<1x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>, memref<1x1x1x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>, memref<1x1x2x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>) -> memref<2x1x3x1x!tile, #ttcore.view<4>, #l1>
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%cat, %side : memref<2x1x3x1x!tile, #ttcore.view<4>, #l1>, memref<2x1x3x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>)
      outs(%out : memref<2x1x3x1x!tile, #ttcore.shard<2048x2048, 1>, #l1>) {
  ^datamovement0:
    %cb = d2m.get_cb(2) : !d2m.cb<memref<3x1x!tile, #l1>>
    %y = d2m.core_index(0) : index
    %x = d2m.core_index(1) : index
    %block = d2m.reserve %cb : <memref<3x1x!tile, #l1>> -> memref<3x1x!tile, #l1>
    %tx = d2m.dma_read %cat[%y, %x], %block, <0> : (memref<2x1x3x1x!tile, #ttcore.view<4>, #l1>, memref<3x1x!tile, #l1>) -> !d2m.mem_tx<read>
    d2m.dma_wait %tx : !d2m.mem_tx<read>
    d2m.push %cb : <memref<3x1x!tile, #l1>>
  }
  return
}

// Row-major f32 rows concatenated along the innermost dim: runs of one 16-byte NoC word (4 elements), the loop
// along the row stepping by 4.
// CHECK-LABEL: func.func @row_major_width
// CHECK: %[[STEP:.*]] = arith.constant 4 : index
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP]] {
// CHECK: d2m.dma_read %arg0[{{.*}}], <4>
// CHECK: d2m.dma_read %arg1[{{.*}}], <4>
func.func @row_major_width(%a: memref<1x1x8x8xf32, #ttcore.shard<32x4, 1>, #l1>,
                           %b: memref<1x1x8x8xf32, #ttcore.shard<32x4, 1>, #l1>,
                           %out: memref<1x1x8x16xf32, #ttcore.shard<64x4, 1>, #l1>) {
  %cat = "d2m.composite_view"(%a, %b) <{dim = 1 : si32, logicalSizes = array<i64: 8, 8>}> : (memref<1x1x8x8xf32, #ttcore.shard<32x4, 1>, #l1>, memref<1x1x8x8xf32, #ttcore.shard<32x4, 1>, #l1>) -> memref<1x1x8x16xf32, #ttcore.view<4>, #l1>
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%cat : memref<1x1x8x16xf32, #ttcore.view<4>, #l1>)
      outs(%out : memref<1x1x8x16xf32, #ttcore.shard<64x4, 1>, #l1>) {
  ^datamovement0:
    %cb = d2m.get_cb(1) : !d2m.cb<memref<8x16xf32, #l1>>
    %y = d2m.core_index(0) : index
    %x = d2m.core_index(1) : index
    %block = d2m.reserve %cb : <memref<8x16xf32, #l1>> -> memref<8x16xf32, #l1>
    %tx = d2m.dma_read %cat[%y, %x], %block, <0> : (memref<1x1x8x16xf32, #ttcore.view<4>, #l1>, memref<8x16xf32, #l1>) -> !d2m.mem_tx<read>
    d2m.dma_wait %tx : !d2m.mem_tx<read>
    d2m.push %cb : <memref<8x16xf32, #l1>>
  }
  return
}
