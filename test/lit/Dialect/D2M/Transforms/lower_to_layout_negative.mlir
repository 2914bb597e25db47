// RUN: ttmlir-opt --ttcore-register-device --d2m-lower-to-layout %s -verify-diagnostics
// d2m-lower-to-layout refuses, at the op, a to_layout it does not plan: one onto a virtual grid.

#v = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
func.func @virtual(%arg0: tensor<64x64xf32>) -> tensor<1x2x64x32xf32, #v> {
  %0 = d2m.empty() {virtualGridForwardMapping = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>, virtualGridInverseMapping = affine_map<(d0, d1) -> (0, d1, d0)>} : tensor<1x2x64x32xf32, #v>
  // expected-error@+1 {{d2m-lower-to-layout does not lower a to_layout between a virtual grid and the host or DRAM yet}}
  %1 = d2m.to_layout %arg0, %0 : tensor<64x64xf32> into tensor<1x2x64x32xf32, #v> -> tensor<1x2x64x32xf32, #v>
  return %1 : tensor<1x2x64x32xf32, #v>
}
