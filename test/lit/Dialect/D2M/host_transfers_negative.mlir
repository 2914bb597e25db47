// RUN: true
// Checked by host_transfers.mlir: each piece fails alone.

#layout = #ttcore.metal_layout<logical_shape = 64x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#other = #ttcore.metal_layout<logical_shape = 64x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, dram, interleaved>

// CHECK: error: 'd2m.to_device' op layout #ttcore.metal_layout<{{.*}}dram, interleaved> is not the device tensor's
func.func @wrong_layout(%arg0: tensor<64x32xf32>) {
  %0 = d2m.empty() : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>
  %1 = d2m.to_device %arg0, %0 layout = #other : tensor<64x32xf32> into tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>
  return
}

// -----
#layout = #ttcore.metal_layout<logical_shape = 64x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
// CHECK: error: 'd2m.to_host' op expects a host tensor without a metal layout
func.func @device_to_device(%arg0: tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>) {
  %0 = d2m.empty() : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>
  %1 = d2m.to_host %arg0, %0 layout = #layout : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout> into tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>
  return
}
