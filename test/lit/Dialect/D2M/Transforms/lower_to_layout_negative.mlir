// RUN: ttmlir-opt --ttcore-register-device --d2m-lower-to-layout %s -verify-diagnostics --split-input-file
// d2m-lower-to-layout refuses, at the op, a to_layout it does not plan: a 1-d tensor's, and a reshard between
// layouts that place elements differently and hold different volumes (no view maps one onto the other yet).

#l = #ttcore.metal_layout<logical_shape = 64, dim_alignments = 32, collapsed_intervals = dense<[[0, 1]]> : tensor<1x2xi64>, l1, sharded>
func.func @one_dim(%arg0: tensor<64xf32>) -> tensor<1x2x32xf32, #l> {
  %0 = d2m.empty() : tensor<1x2x32xf32, #l>
  // expected-error@+1 {{d2m-lower-to-layout does not lower a to_layout of a 1-d tensor}}
  %1 = d2m.to_layout %arg0, %0 : tensor<64xf32> into tensor<1x2x32xf32, #l> -> tensor<1x2x32xf32, #l>
  return %1 : tensor<1x2x32xf32, #l>
}

// -----

#a = #ttcore.metal_layout<logical_shape = 3x40x64, dim_alignments = 1x32x32, collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, l1, sharded>
#b = #ttcore.metal_layout<logical_shape = 3x40x64, dim_alignments = 1x64x32, collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, l1, sharded>
func.func @differently_placed(%arg0: tensor<1x1x192x64xf32, #a>) -> tensor<1x1x192x64xf32, #b> {
  %0 = d2m.empty() : tensor<1x1x192x64xf32, #b>
  // expected-error@+1 {{d2m-lower-to-layout does not remap}}
  %1 = d2m.to_layout %arg0, %0 : tensor<1x1x192x64xf32, #a> into tensor<1x1x192x64xf32, #b> -> tensor<1x1x192x64xf32, #b>
  return %1 : tensor<1x1x192x64xf32, #b>
}
