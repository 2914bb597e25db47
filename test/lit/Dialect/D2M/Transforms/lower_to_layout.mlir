// RUN: ttmlir-opt --split-input-file --ttcore-register-device --d2m-lower-to-layout %s | FileCheck %s
// d2m-lower-to-layout writes each d2m.to_layout as the steps that move it: host to L1 and tilize, DRAM to L1
// (read on the L1 grid through a view), an L1 reshard of tiles that do not line up (untilize, reshard the rows
// through a view, tilize), untilize and back to the host. The to_layout's output is written by the last step.

#l1 = #ttcore.metal_layout<logical_shape = 64x96, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>

// CHECK-LABEL: func.func @host_in_tiled
// CHECK: %[[OUT:.*]] = d2m.empty() : tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #[[L1:layout[0-9]*]]>
// CHECK: %[[ROWS:.*]] = d2m.empty() : tensor<2x3x32x32xf32, #[[L1]]>
// CHECK: %[[DEV:.*]] = d2m.to_device %arg0, %[[ROWS]] layout = #[[L1]] : tensor<64x96xf32> into tensor<2x3x32x32xf32, #[[L1]]>
// CHECK: %[[T:.*]] = d2m.generic {{{.*}}grid = #ttcore.grid<2x3>{{.*}}threads = [#d2m.thread<unified>]}
// CHECK-NEXT: ins(%[[DEV]] : tensor<2x3x32x32xf32, #[[L1]]>)
// CHECK-NEXT: outs(%[[OUT]] : tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #[[L1]]>)
// CHECK: d2m.remote_load %{{.*}} %[[DEV]][%{{.*}}, %{{.*}}]
// CHECK: "d2m.tile_tilize_block"(%{{.*}}, %{{.*}}) : (tensor<32x32xf32>, tensor<1x1x!ttcore.tile<32x32, f32>>)
// CHECK: d2m.remote_store %[[OUT]]
// CHECK: return %[[T]]
func.func @host_in_tiled(%arg0: tensor<64x96xf32>) -> tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1> {
  %0 = d2m.empty() : tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1>
  %1 = d2m.to_layout %arg0, %0 : tensor<64x96xf32> into tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1> -> tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1>
  return %1 : tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1>
}

// -----

#l1 = #ttcore.metal_layout<logical_shape = 64x96, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#dram = #ttcore.metal_layout<logical_shape = 64x96, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, dram, interleaved>

// A DRAM tensor (one 2x3-tile block) read onto the L1 grid: a view gives each core its block.
// CHECK-LABEL: func.func @dram_to_l1
// CHECK: %[[VIEW:.*]] = d2m.view_layout %arg0 remapping = #{{.*}} : tensor<1x1x2x3x!ttcore.tile<32x32, f32>, #{{.*}}> -> tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #{{.*}}>
// CHECK: d2m.generic {{{.*}}grid = #ttcore.grid<2x3>
// CHECK-NEXT: ins(%[[VIEW]]
// CHECK-NOT: tilize
// CHECK: return
func.func @dram_to_l1(%arg0: tensor<1x1x2x3x!ttcore.tile<32x32, f32>, #dram>) -> tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1> {
  %0 = d2m.empty() : tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1>
  %1 = d2m.to_layout %arg0, %0 : tensor<1x1x2x3x!ttcore.tile<32x32, f32>, #dram> into tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1> -> tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1>
  return %1 : tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1>
}

// -----

#a = #ttcore.metal_layout<logical_shape = 96x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>

// Tiles padded differently on two grids (4 rows of tiles for 3 on one side) are resharded as rows: untilize,
// a view keeping each row and column where it is, a copy on the new grid, tilize.
// CHECK-LABEL: func.func @padded_reshard
// CHECK: d2m.empty() : tensor<2x2x64x32xbf16
// CHECK: "d2m.tile_untilize_block"
// CHECK: %[[ROWS:.*]] = d2m.empty() : tensor<3x2x32x32xbf16
// CHECK: d2m.view_layout %{{.*}} remapping = #{{.*}} : tensor<2x2x64x32xbf16, #{{.*}}> -> tensor<3x2x32x32xbf16
// CHECK: d2m.generic {{{.*}}grid = #ttcore.grid<3x2>
// CHECK: "d2m.tile_tilize_block"
func.func @padded_reshard(%arg0: tensor<2x2x2x1x!ttcore.tile<32x32, bf16>, #a>) -> tensor<3x2x1x1x!ttcore.tile<32x32, bf16>, #a> {
  %0 = d2m.empty() : tensor<3x2x1x1x!ttcore.tile<32x32, bf16>, #a>
  %1 = d2m.to_layout %arg0, %0 : tensor<2x2x2x1x!ttcore.tile<32x32, bf16>, #a> into tensor<3x2x1x1x!ttcore.tile<32x32, bf16>, #a> -> tensor<3x2x1x1x!ttcore.tile<32x32, bf16>, #a>
  return %1 : tensor<3x2x1x1x!ttcore.tile<32x32, bf16>, #a>
}

// -----

#l1 = #ttcore.metal_layout<logical_shape = 64x96, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>

// CHECK-LABEL: func.func @tiled_out
// CHECK: %[[HOST:.*]] = d2m.empty() : tensor<64x96xf32>
// CHECK: %[[ROWS:.*]] = d2m.empty() : tensor<2x3x32x32xf32
// CHECK: %[[U:.*]] = d2m.generic
// CHECK: "d2m.tile_untilize_block"
// CHECK: d2m.to_host %[[U]], %[[HOST]] layout = #{{.*}} : tensor<2x3x32x32xf32, #{{.*}}> into tensor<64x96xf32>
func.func @tiled_out(%arg0: tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1>) -> tensor<64x96xf32> {
  %0 = d2m.empty() : tensor<64x96xf32>
  %1 = d2m.to_layout %arg0, %0 : tensor<2x3x1x1x!ttcore.tile<32x32, f32>, #l1> into tensor<64x96xf32> -> tensor<64x96xf32>
  return %1 : tensor<64x96xf32>
}


// -----

#l1 = #ttcore.metal_layout<logical_shape = 32x128, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#dram = #ttcore.metal_layout<logical_shape = 32x128, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, dram, interleaved>

// An L1 tensor on a 1x4 virtual grid (2x2 cores) written to DRAM by its own cores: the DRAM tensor seen on the
// virtual grid, the generic's grid carrying the mappings.
// CHECK-LABEL: func.func @virtual_to_dram
// CHECK: %[[V:.*]] = d2m.view_layout %{{.*}} : tensor<1x1x1x4x!ttcore.tile<32x32, f32>, #{{.*}}> -> tensor<1x4x1x1x!ttcore.tile<32x32, f32>
// CHECK: d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x4, virt_to_physical_map = (d0, d1) -> (0, d1 floordiv 2, d1 mod 2), physical_to_virt_map = (d0, d1) -> (0, 0, d0 * 2 + d1)>
// CHECK-NEXT: ins(%{{.*}} : tensor<1x4x1x1x!ttcore.tile<32x32, f32>
// CHECK-NEXT: outs(%[[V]] :
// CHECK: d2m.view_layout %{{.*}} -> tensor<1x1x1x4x!ttcore.tile<32x32, f32>
func.func @virtual_to_dram() -> tensor<1x1x1x4x!ttcore.tile<32x32, f32>, #dram> {
  %src = d2m.empty() {virtualGridForwardMapping = affine_map<(d0, d1, d2, d3) -> (d1 floordiv 2, d1 mod 2, d2, d3)>, virtualGridInverseMapping = affine_map<(d0, d1) -> (0, 0, d0 * 2 + d1)>} : tensor<1x4x1x1x!ttcore.tile<32x32, f32>, #l1>
  %dst = d2m.empty() : tensor<1x1x1x4x!ttcore.tile<32x32, f32>, #dram>
  %r = d2m.to_layout %src, %dst : tensor<1x4x1x1x!ttcore.tile<32x32, f32>, #l1> into tensor<1x1x1x4x!ttcore.tile<32x32, f32>, #dram> -> tensor<1x1x1x4x!ttcore.tile<32x32, f32>, #dram>
  return %r : tensor<1x1x1x4x!ttcore.tile<32x32, f32>, #dram>
}
