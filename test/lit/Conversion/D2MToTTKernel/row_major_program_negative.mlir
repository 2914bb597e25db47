// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s 2>&1 | FileCheck %s
// Row-major shards of two dims are where host data lands and results are untilized into for the host; a program
// computing on them is refused at the generic, not run as if its pages were tiles.
// CHECK: row_major_program_negative.mlir:[[# @LINE + 9]]:8: error: a program on row-major elements of two dims is not lowered to TTMetal yet

#layout = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#map = affine_map<(d0, d1) -> (d0, d1)>
#parallel = #ttcore.iterator_type<parallel>
func.func @rm(%arg0: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = d2m.empty() : tensor<1x1x64x64xf32, #layout>
  %1 = d2m.to_layout %arg0, %0 : tensor<64x64xf32> into tensor<1x1x64x64xf32, #layout> -> tensor<1x1x64x64xf32, #layout>
  %2 = d2m.empty() : tensor<1x1x64x64xf32, #layout>
  %3 = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#map, #map], iterator_types = [#parallel, #parallel], threads = [#d2m.thread<unified>]}
      ins(%1 : tensor<1x1x64x64xf32, #layout>)
      outs(%2 : tensor<1x1x64x64xf32, #layout>) {
    %b0 = d2m.block_index(0) : index
    %b1 = d2m.block_index(1) : index
    %e = tensor.empty() : tensor<64x64xf32>
    %l = d2m.remote_load %e %1[%b0, %b1] : tensor<64x64xf32>, tensor<1x1x64x64xf32, #layout> -> tensor<64x64xf32>
    %s = d2m.remote_store %2[%b0, %b1] %l : tensor<1x1x64x64xf32, #layout>, tensor<64x64xf32> -> tensor<1x1x64x64xf32, #layout>
    d2m.yield %s : (tensor<1x1x64x64xf32, #layout>)
  } : tensor<1x1x64x64xf32, #layout>
  %4 = d2m.empty() : tensor<64x64xf32>
  %5 = d2m.to_layout %3, %4 : tensor<1x1x64x64xf32, #layout> into tensor<64x64xf32> -> tensor<64x64xf32>
  return %5 : tensor<64x64xf32>
}
