// RUN: not ttmlir-opt --split-input-file %s 2>&1 | FileCheck %s
// d2m.spatial: one core range per region, one 2-d generic per region fitting its range (through the generic's
// virtual grid when it has one), ranges apart; a generic on a virtual grid writes an output made for that grid.

#layout = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#id = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>

func.func @too_big(%a: tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>) -> tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout> {
  // CHECK: error: 'd2m.spatial' op generic op grid shape [2, 2] exceeds region CoreRange shape [1, 3]
  %0 = d2m.spatial {grid_ranges = [#ttcore.core_range<(0, 0), (0, 2)>]} ins() outs(%a : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>) {
    %1 = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<2x2>, indexing_maps = [#id], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]} ins() outs(%a : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>) {
      %t = tensor.empty() : tensor<1x1x!ttcore.tile<32x32, f32>>
      d2m.yield %t : (tensor<1x1x!ttcore.tile<32x32, f32>>)
    } : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
    d2m.spatial_yield %1 : (tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>)
  } : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
  return %0 : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
}

// -----

#layout = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#id = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>

func.func @shifted_grid_outside(%a: tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>) -> tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout> {
  %e = d2m.empty() {virtualGridInverseMapping = affine_map<(d0, d1) -> (0, d0 - 3, d1 - 3)>} : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
  // CHECK: error: 'd2m.spatial' op generic op grid not contained in region grid_ranges [1, 1] to [1, 1]
  %0 = d2m.spatial {grid_ranges = [#ttcore.core_range<(1, 1), (1, 1)>]} ins() outs(%e : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>) {
    %1 = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1, virt_to_physical_map = (d0, d1) -> (0, d0 + 3, d1 + 3), physical_to_virt_map = (d0, d1) -> (0, d0 - 3, d1 - 3)>, indexing_maps = [#id], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]} ins() outs(%e : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>) {
      %t = tensor.empty() : tensor<2x2x!ttcore.tile<32x32, f32>>
      d2m.yield %t : (tensor<2x2x!ttcore.tile<32x32, f32>>)
    } : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
    d2m.spatial_yield %1 : (tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>)
  } : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
  return %0 : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
}

// -----

#layout = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#id = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>

func.func @output_without_vgm(%a: tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>) -> tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout> {
  // CHECK: error: 'd2m.generic' op grid has an inverse map but output operand does not have a VGM
  %1 = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1, virt_to_physical_map = (d0, d1) -> (0, d0 + 3, d1 + 3), physical_to_virt_map = (d0, d1) -> (0, d0 - 3, d1 - 3)>, indexing_maps = [#id], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]} ins() outs(%a : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>) {
    %t = tensor.empty() : tensor<2x2x!ttcore.tile<32x32, f32>>
    d2m.yield %t : (tensor<2x2x!ttcore.tile<32x32, f32>>)
  } : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
  return %1 : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
}

// -----

#layout = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>

func.func @no_ranges(%a: tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>) -> tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout> {
  // CHECK: error: 'd2m.spatial' op grid_ranges must contain at least one CoreRange
  %0 = d2m.spatial {grid_ranges = []} ins() outs(%a : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>) {
    d2m.spatial_yield %a : (tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>)
  } : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
  return %0 : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
}
