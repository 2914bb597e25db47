// RUN: ttmlir-opt --ttcore-register-device --d2m-grid-selection %s | FileCheck %s
// A generic in a d2m.spatial region keeps the grid its core range gives it; when its output is made on cores away
// from the origin (a d2m.empty with virtual grid maps, here seen through a view) the grid carries the maps of
// those cores. The region at the origin has no maps.

#layout = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>

// CHECK-LABEL: func.func @two_regions
func.func @two_regions() -> (tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>, tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>) {
  %a = d2m.empty() : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
  %b = d2m.empty() {virtualGridForwardMapping = affine_map<(d0, d1, d2, d3) -> (d0 + 3, d1 + 1, d2, d3)>, virtualGridInverseMapping = affine_map<(d0, d1) -> (0, d0 - 3, d1 - 1)>} : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
  %bv = d2m.view_layout %b remapping = #id4 : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
  %r:2 = d2m.spatial {grid_ranges = [#ttcore.core_range<(0, 0), (0, 0)>, #ttcore.core_range<(3, 1), (4, 2)>]}
      ins() outs(%a, %bv : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>, tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>) {
    // CHECK: d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>,
    %0 = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]}
        ins() outs(%a : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>) {
      %t = tensor.empty() : tensor<2x2x!ttcore.tile<32x32, f32>>
      d2m.yield %t : (tensor<2x2x!ttcore.tile<32x32, f32>>)
    } : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
    d2m.spatial_yield %0 : (tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>)
  }, {
    // CHECK: d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<2x2, virt_to_physical_map = (d0, d1) -> (0, d0 + 3, d1 + 1), physical_to_virt_map = (d0, d1) -> (0, d0 - 3, d1 - 1)>,
    %1 = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<2x2>, indexing_maps = [#id], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]}
        ins() outs(%bv : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>) {
      %t = tensor.empty() : tensor<1x1x!ttcore.tile<32x32, f32>>
      d2m.yield %t : (tensor<1x1x!ttcore.tile<32x32, f32>>)
    } : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
    d2m.spatial_yield %1 : (tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>)
  } : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>, tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
  return %r#0, %r#1 : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>, tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
}
