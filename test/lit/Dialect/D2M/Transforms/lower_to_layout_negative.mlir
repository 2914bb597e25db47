// RUN: ttmlir-opt --ttcore-register-device --d2m-lower-to-layout %s -verify-diagnostics --split-input-file
// d2m-lower-to-layout refuses, at the op, a to_layout it does not plan: a 1-d tensor's.

#l = #ttcore.metal_layout<logical_shape = 64, dim_alignments = 32, collapsed_intervals = dense<[[0, 1]]> : tensor<1x2xi64>, l1, sharded>
func.func @one_dim(%arg0: tensor<64xf32>) -> tensor<1x2x32xf32, #l> {
  %0 = d2m.empty() : tensor<1x2x32xf32, #l>
  // expected-error@+1 {{d2m-lower-to-layout does not lower a to_layout of a 1-d tensor}}
  %1 = d2m.to_layout %arg0, %0 : tensor<64xf32> into tensor<1x2x32xf32, #l> -> tensor<1x2x32xf32, #l>
  return %1 : tensor<1x2x32xf32, #l>
}
