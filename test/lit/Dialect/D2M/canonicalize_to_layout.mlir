// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// A device tensor moved to the host and back is the device tensor (a to_layout of a to_layout moves the first's
// input, one between tensors of one type is its input); a to_layout of a fresh d2m.empty is an empty of its
// output's type. A to_layout of a view stays: it materializes the view.

#l = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
!dev = tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #l>

// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: (%[[A:.*]]: tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>)
// CHECK-NOT: d2m.to_layout
// CHECK: return %[[A]]
func.func @round_trip(%a: !dev) -> !dev {
  %h = d2m.empty() : tensor<64x64xf32>
  %host = d2m.to_layout %a, %h : !dev into tensor<64x64xf32> -> tensor<64x64xf32>
  %d = d2m.empty() : !dev
  %back = d2m.to_layout %host, %d : tensor<64x64xf32> into !dev -> !dev
  return %back : !dev
}

// CHECK-LABEL: func.func @of_empty
// CHECK-NEXT: %[[E:.*]] = d2m.empty() {virtualGridForwardMapping = #{{.*}}} : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #layout>
// CHECK-NEXT: return %[[E]]
func.func @of_empty() -> !dev {
  %h = d2m.empty() : tensor<64x64xf32>
  %d = d2m.empty() {virtualGridForwardMapping = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>} : !dev
  %r = d2m.to_layout %h, %d : tensor<64x64xf32> into !dev -> !dev
  return %r : !dev
}

// CHECK-LABEL: func.func @of_view
// CHECK: d2m.view_layout
// CHECK: d2m.to_layout
func.func @of_view(%a: !dev) -> !dev {
  %v = d2m.view_layout %a remapping = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)> : !dev -> !dev
  %d = d2m.empty() : !dev
  %r = d2m.to_layout %v, %d : !dev into !dev -> !dev
  return %r : !dev
}
