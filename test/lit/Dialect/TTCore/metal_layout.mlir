// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// A tensor laid out on a 2x2 grid of cores: the grid shape, then each core's shard of 32x32 tiles.
// CHECK: #ttcore.metal_layout<logical_shape = 128x256, dim_alignments = 32x32, collapsed_intervals = dense<{{\[\[}}0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
// CHECK: #ttcore.metal_layout<logical_shape = 4x64x96, dim_alignments = 1x32x32, collapsed_intervals = dense<{{\[\[}}0, -1], [-1, 3]]> : tensor<2x2xi64>, dram, interleaved>
#grid = #ttcore.metal_layout<logical_shape = 128x256, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#batched = #ttcore.metal_layout<logical_shape = 4x64x96, dim_alignments = 1x32x32, collapsed_intervals = dense<[[0, -1], [-1, 3]]> : tensor<2x2xi64>, dram, interleaved>
func.func @shards(%a: tensor<2x2x2x4x!ttcore.tile<32x32, bf16>, #grid>, %b: tensor<1x1x256x96xf32, #batched>) -> tensor<2x2x2x4x!ttcore.tile<32x32, bf16>, #grid> {
  return %a : tensor<2x2x2x4x!ttcore.tile<32x32, bf16>, #grid>
}
