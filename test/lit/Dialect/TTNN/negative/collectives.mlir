// RUN: not ttmlir-opt --split-input-file %s 2>&1 | FileCheck %s
// TTNN collectives are verified as upstream's TTNN verifies them, in its words.

#dram = #ttnn.buffer_type<dram>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK: error: 'ttnn.all_gather' op Invalid gather dimension for all reduce op. Gather dimension must be >= to input tensor rank or < -input tensor rank, got gather_dim = -3
func.func @gather_dim_before_rank(%arg0: tensor<64x128xbf16, #layout>) -> tensor<64x128xbf16, #layout> {
  %0 = "ttnn.all_gather"(%arg0) <{all_gather_dim = -3 : si32, cluster_axis = 0 : ui32}> : (tensor<64x128xbf16, #layout>) -> tensor<64x128xbf16, #layout>
  return %0 : tensor<64x128xbf16, #layout>
}

// -----
#dram = #ttnn.buffer_type<dram>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK: error: 'ttnn.reduce_scatter' op Invalid reduction type for reduce scatter op.
func.func @scatter_by_max(%arg0: tensor<64x128xbf16, #layout>) -> tensor<64x128xbf16, #layout> {
  %0 = "ttnn.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<max>, scatter_dim = 1 : si32}> : (tensor<64x128xbf16, #layout>) -> tensor<64x128xbf16, #layout>
  return %0 : tensor<64x128xbf16, #layout>
}

// -----
#dram = #ttnn.buffer_type<dram>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK: error: 'ttnn.all_reduce' op Invalid reduction type for all reduce op.
func.func @all_reduce_by_min(%arg0: tensor<64x128xbf16, #layout>) -> tensor<64x128xbf16, #layout> {
  %0 = "ttnn.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<min>}> : (tensor<64x128xbf16, #layout>) -> tensor<64x128xbf16, #layout>
  return %0 : tensor<64x128xbf16, #layout>
}
