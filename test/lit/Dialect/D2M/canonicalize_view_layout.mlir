// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// A d2m.view_layout of a tensor as it is (the same type, the identity remapping) is the tensor; a view that
// remaps or reblocks stays.

#layout = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>

// CHECK-LABEL: func.func @identity
// CHECK-NOT: d2m.view_layout
// CHECK: return %arg0
func.func @identity(%arg0: tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>) -> tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout> {
  %0 = d2m.view_layout %arg0 remapping = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)> : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
  return %0 : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
}

// CHECK-LABEL: func.func @transposed
// CHECK: %[[V:.*]] = d2m.view_layout %arg0
// CHECK: return %[[V]]
func.func @transposed(%arg0: tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>) -> tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout> {
  %0 = d2m.view_layout %arg0 remapping = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)> : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
  return %0 : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>
}

// CHECK-LABEL: func.func @reblocked
// CHECK: %[[V:.*]] = d2m.view_layout %arg0
// CHECK: return %[[V]]
func.func @reblocked(%arg0: tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout>) -> tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout> {
  %0 = d2m.view_layout %arg0 remapping = affine_map<(d0, d1, d2, d3) -> (d2, d3, 0, 0)> : tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
  return %0 : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
}
