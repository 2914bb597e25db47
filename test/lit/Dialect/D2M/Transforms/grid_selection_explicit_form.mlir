// RUN: ttmlir-opt --ttcore-register-device --d2m-grid-selection %s | FileCheck %s
// d2m-grid-selection leaves a generic in explicit data-movement form (no indexing maps, its threads written by
// hand) on the grid it was given; only generics with indexing maps are spread over the device.

#layout = #ttcore.metal_layout<logical_shape = 128x128, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
!t = tensor<1x1x4x4x!ttcore.tile<32x32, f32>, #layout>

// CHECK-LABEL: func.func @by_hand
// CHECK: d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = []
// CHECK-NEXT: ins(%arg0 : tensor<1x1x4x4x!ttcore.tile<32x32, f32>, #layout>)
func.func @by_hand(%arg0: !t) -> !t {
  %0 = d2m.empty() : !t
  %r = d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%arg0 : !t) outs(%0 : !t) {
  ^datamovement0:
    %cb = d2m.get_cb(0) : !d2m.cb<tensor<4x4x!ttcore.tile<32x32, f32>>>
  } : !t
  return %r : !t
}
