// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// D2M's ops in their custom syntax read and print back unchanged.

#layout = #ttcore.metal_layout<logical_shape = 64x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#shift = affine_map<(d0, d1, d2, d3) -> (d0 + 2, d1, d2, d3)>
// CHECK-DAG: #[[SHIFT:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0 + 2, d1, d2, d3)>
// CHECK-DAG: #[[ID4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @relu
func.func @relu(%arg0: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // CHECK: %[[E:.*]] = d2m.empty() {virtualGridForwardMapping = #[[SHIFT]]} : tensor<2x1x1x1x!ttcore.tile<32x32, f32>
  %0 = d2m.empty() {virtualGridForwardMapping = #shift} : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>
  // CHECK: %[[D:.*]] = d2m.to_layout %arg0, %[[E]] : tensor<64x32xf32> into tensor<2x1x1x1x!ttcore.tile<32x32, f32>
  %1 = d2m.to_layout %arg0, %0 : tensor<64x32xf32> into tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>
  // CHECK: d2m.view_layout %[[D]] remapping = #[[ID4]] :
  %2 = d2m.view_layout %1 remapping = #id4 : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>
  %3 = d2m.empty() : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>
  // CHECK: d2m.spatial {grid_ranges = [#ttcore.core_range<(2,0), (3,0)>]} ins(
  %4 = d2m.spatial {grid_ranges = [#ttcore.core_range<(2, 0), (3, 0)>]} ins(%2 : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>) outs(%3 : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>) {
    // CHECK: d2m.generic {{{.*}}threads = [#d2m.thread<unified>]}
    // CHECK-NEXT: ins(
    %5 = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<2x1>, indexing_maps = [#id, #id], iterator_types = [#ttcore.iterator_type<parallel>, #ttcore.iterator_type<parallel>], threads = [#d2m.thread<unified>]} ins(%2 : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>) outs(%3 : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>) {
      // CHECK: d2m.block_index(0) : index
      %i = d2m.block_index(0) : index
      %j = d2m.block_index(1) : index
      %c0 = arith.constant 0 : index
      %t = tensor.empty() : tensor<1x1x!ttcore.tile<32x32, f32>>
      // CHECK: d2m.remote_load %{{.*}} %{{.*}}[%{{.*}}, %{{.*}}] mcast[%{{.*}}] : tensor<1x1x!ttcore.tile<32x32, f32>>, tensor<2x1x1x1x
      %l = d2m.remote_load %t %2[%i, %j] mcast[%c0] : tensor<1x1x!ttcore.tile<32x32, f32>>, tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<1x1x!ttcore.tile<32x32, f32>>
      // CHECK: "d2m.tile_relu"
      %r = "d2m.tile_relu"(%l) : (tensor<1x1x!ttcore.tile<32x32, f32>>) -> tensor<1x1x!ttcore.tile<32x32, f32>>
      // CHECK: d2m.remote_store %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}} : tensor<2x1x1x1x
      %s = d2m.remote_store %3[%i, %j] %r : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>, tensor<1x1x!ttcore.tile<32x32, f32>> -> tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>
      // CHECK: d2m.yield %{{.*}} : (tensor<2x1x1x1x
      d2m.yield %s : (tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>)
    } : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>
    // CHECK: d2m.spatial_yield
    d2m.spatial_yield %5 : (tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>)
  } : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout>
  %6 = d2m.empty() : tensor<64x32xf32>
  %7 = d2m.to_layout %4, %6 : tensor<2x1x1x1x!ttcore.tile<32x32, f32>, #layout> into tensor<64x32xf32> -> tensor<64x32xf32>
  return %7 : tensor<64x32xf32>
}
