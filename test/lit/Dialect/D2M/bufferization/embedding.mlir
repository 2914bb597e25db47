// RUN: ttmlir-opt --ttcore-register-device --ttcore-one-shot-bufferize %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s --check-prefix=ROUND
// RUN: not ttmlir-opt --split-input-file %S/embedding_negative.mlir 2>&1 | FileCheck %S/embedding_negative.mlir
// d2m.embedding prints and parses as upstream writes it; on buffers it is a d2m.indexed_row_copy into the output's
// buffer, staged through an index and a row scratch buffer of a tile's worth of elements in L1.

#indices = #ttcore.metal_layout<logical_shape = 3x5, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#table = #ttcore.metal_layout<logical_shape = 20x12, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, dram, sharded>
#output = #ttcore.metal_layout<logical_shape = 3x5x12, dim_alignments = 1x32x32, collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, l1, sharded>

// CHECK-LABEL: func.func @lookup
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<1x1x15x12xbf16
// CHECK: d2m.generic
// CHECK: %[[IS:.*]] = memref.alloc() {alignment = 16 : i64} : memref<1x1024xsi32, #l1>
// CHECK: %[[RS:.*]] = memref.alloc() {alignment = 16 : i64} : memref<1x1024xbf16, #l1>
// CHECK: d2m.indexed_row_copy %arg0, %arg1, %[[OUT]] scratch %[[IS]], %[[RS]]<15, 12> {indicesShape = array<i64: 3, 5>}
// CHECK-NOT: d2m.embedding
// CHECK: return %[[OUT]]
// ROUND: d2m.embedding %arg0, %arg1, %0<15, 12> {indicesShape = array<i64: 3, 5>} : tensor<1x1x3x5xsi32, #layout>, tensor<1x1x20x12xbf16, #layout1>, tensor<1x1x15x12xbf16, #layout2> -> tensor<1x1x15x12xbf16, #layout2>
func.func @lookup(%indices: tensor<1x1x3x5xsi32, #indices>, %weight: tensor<1x1x20x12xbf16, #table>) -> tensor<1x1x15x12xbf16, #output> {
  %output = d2m.empty() : tensor<1x1x15x12xbf16, #output>
  %result = d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%indices, %weight : tensor<1x1x3x5xsi32, #indices>, tensor<1x1x20x12xbf16, #table>)
      outs(%output : tensor<1x1x15x12xbf16, #output>) {
    %embed = d2m.embedding %indices, %weight, %output<15, 12> {indicesShape = array<i64: 3, 5>} : tensor<1x1x3x5xsi32, #indices>, tensor<1x1x20x12xbf16, #table>, tensor<1x1x15x12xbf16, #output> -> tensor<1x1x15x12xbf16, #output>
    d2m.yield %embed : (tensor<1x1x15x12xbf16, #output>)
  } : tensor<1x1x15x12xbf16, #output>
  return %result : tensor<1x1x15x12xbf16, #output>
}
