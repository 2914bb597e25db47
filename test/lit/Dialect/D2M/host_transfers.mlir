// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --d2m-grid-selection %s | FileCheck %s --check-prefix=GRID
// RUN: not ttmlir-opt --split-input-file %S/host_transfers_negative.mlir 2>&1 | FileCheck %S/host_transfers_negative.mlir
// d2m.to_device and d2m.to_host: the host case of d2m.to_layout made explicit, the device side's layout named.
// Grid selection spreads the moved tensor (and the d2m.empty it is moved into) as it does a to_layout's.

#layout = #ttcore.metal_layout<logical_shape = 64x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#map = affine_map<(d0, d1) -> (d0, d1)>
#parallel = #ttcore.iterator_type<parallel>

// CHECK-LABEL: func.func @neg
// CHECK: d2m.to_device %arg0, %{{.*}} layout = #layout : tensor<64x32xf32> into tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>
// CHECK: d2m.to_host %{{.*}}, %{{.*}} layout = #layout : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout> into tensor<64x32xf32> -> tensor<64x32xf32>
// GRID: %[[DEST:.*]] = d2m.empty() : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>
// GRID: d2m.to_device %arg0, %[[DEST]] layout = #layout : tensor<64x32xf32> into tensor<2x1x1x1x
// GRID: d2m.generic {{{.*}}grid = #ttcore.grid<2x1>
func.func @neg(%arg0: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = d2m.empty() : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>
  %1 = d2m.to_device %arg0, %0 layout = #layout : tensor<64x32xf32> into tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>
  %2 = d2m.empty() : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>
  %3 = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#map, #map], iterator_types = [#parallel, #parallel], threads = [#d2m.thread<unified>]} ins(%1 : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>) outs(%2 : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>) {
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %e = tensor.empty() : tensor<2x1x!ttcore.tile<32x32, f32>>
    %in = d2m.remote_load %e %1[%i, %j] : tensor<2x1x!ttcore.tile<32x32, f32>>, tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<2x1x!ttcore.tile<32x32, f32>>
    %o = tensor.empty() : tensor<2x1x!ttcore.tile<32x32, f32>>
    %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%in : tensor<2x1x!ttcore.tile<32x32, f32>>) outs(%o : tensor<2x1x!ttcore.tile<32x32, f32>>) {
    ^bb0(%a: !ttcore.tile<32x32, f32>, %b: !ttcore.tile<32x32, f32>):
      %n = "d2m.tile_negative"(%a) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
      linalg.yield %n : !ttcore.tile<32x32, f32>
    } -> tensor<2x1x!ttcore.tile<32x32, f32>>
    %s = d2m.remote_store %2[%i, %j] %r : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>, tensor<2x1x!ttcore.tile<32x32, f32>> -> tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>
    d2m.yield %s : (tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>)
  } : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>
  %4 = d2m.empty() : tensor<64x32xf32>
  %5 = d2m.to_host %3, %4 layout = #layout : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout> into tensor<64x32xf32> -> tensor<64x32xf32>
  return %5 : tensor<64x32xf32>
}
