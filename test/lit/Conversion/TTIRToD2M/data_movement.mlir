// RUN: ttmlir-opt --ttir-to-d2m --split-input-file %s | FileCheck %s
// Reshapes, squeezes and permutes that leave every element in its tile are programs copying the input's blocks
// into the result's (the region stores the block it loads); a permute of a matrix's two dims is a transpose; a
// slice of whole tiles copies a view of its input shifted to its first tile; a
// broadcast is a linalg.generic yielding its operand's tile read through the map of the block it spreads (one
// spread over each tile by a d2m.tile_bcast; one along batch dims alone copies a view of whole tiles (output tile
// row i from the source's tile row i mod its tile rows). Others are copies of the input's logical view (see logical_views.mlir).

// CHECK: #map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 mod 2, d3)>
// CHECK: #map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 + 3, d3 + 1)>
// CHECK-LABEL: func.func @squeeze
// CHECK: d2m.tile_abs
// CHECK: %[[IN:.*]] = d2m.to_layout %{{.*}} : tensor<1x12x96xf32> into
// CHECK: d2m.generic {{.*}}indexing_maps = [#map, #map]
// CHECK-NEXT: ins(%[[IN]] : tensor<1x1x1x3x!ttcore.tile<32x32, f32>, #layout>)
// CHECK-NEXT: outs(%{{.*}} : tensor<1x1x1x3x!ttcore.tile<32x32, f32>, #layout1>)
// CHECK-NEXT: {
// CHECK-NEXT: %[[Y:.*]] = d2m.block_index(0)
// CHECK-NEXT: %[[X:.*]] = d2m.block_index(1)
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: %[[BLOCK:.*]] = d2m.remote_load
// CHECK-NEXT: %[[STORED:.*]] = d2m.remote_store %{{.*}}[%[[Y]], %[[X]]] %[[BLOCK]]
// CHECK-NEXT: d2m.yield %[[STORED]]
func.func @squeeze(%a: tensor<1x12x96xf32>) -> tensor<12x96xf32> {
  // a computed tensor: an argument's squeeze is a view the host makes (host_view.mlir)
  %abs = "ttir.abs"(%a) : (tensor<1x12x96xf32>) -> tensor<1x12x96xf32>
  %0 = "ttir.squeeze"(%abs) <{dim = 0 : si32}> : (tensor<1x12x96xf32>) -> tensor<12x96xf32>
  return %0 : tensor<12x96xf32>
}

// CHECK-LABEL: func.func @permute
// CHECK: d2m.generic {{.*}}indexing_maps = [#map1, #map]
// CHECK: d2m.tile_transpose
func.func @permute(%a: tensor<64x96xf32>) -> tensor<96x64xf32> {
  %0 = "ttir.permute"(%a) <{permutation = array<i64: 1, 0>}> : (tensor<64x96xf32>) -> tensor<96x64xf32>
  return %0 : tensor<96x64xf32>
}

// CHECK-LABEL: func.func @bcast
// CHECK: d2m.generic {{.*}}indexing_maps = [#map2, #map]
// CHECK: linalg.generic {indexing_maps = [#map2, #map]
// CHECK-NEXT: ^bb0(%[[T:.*]]: !ttcore.tile<32x32, f32>, %{{.*}}: !ttcore.tile<32x32, f32>):
// CHECK-NEXT: %[[SPREAD:.*]] = "d2m.tile_bcast"(%[[T]]) <{bcast_type = #d2m<tile_bcast_type col>}>
// CHECK-NEXT: linalg.yield %[[SPREAD]]
func.func @bcast(%a: tensor<4x40x1xf32>) -> tensor<4x40x96xf32> {
  %0 = "ttir.broadcast"(%a) <{broadcast_dimensions = array<i64: 1, 1, 96>}> : (tensor<4x40x1xf32>) -> tensor<4x40x96xf32>
  return %0 : tensor<4x40x96xf32>
}

// CHECK-LABEL: func.func @batch
// CHECK: %[[REPEATED:.*]] = d2m.view_layout %{{.*}} remapping = #map3 : tensor<1x1x2x3x!ttcore.tile<32x32, f32>, #{{.*}}> -> tensor<1x1x6x3x
// CHECK: d2m.generic
// CHECK-NEXT: ins(%[[REPEATED]] :
func.func @batch(%a: tensor<1x40x96xf32>) -> tensor<3x40x96xf32> {
  %0 = "ttir.broadcast"(%a) <{broadcast_dimensions = array<i64: 3, 1, 1>}> : (tensor<1x40x96xf32>) -> tensor<3x40x96xf32>
  return %0 : tensor<3x40x96xf32>
}

// A slice of whole tiles (matrices 3..4 of 6, each 20x96 in one tile row; the last dim from 32): the input moved to
// DRAM, viewed from its tile (3, 1), the view copied into the result.
// CHECK-LABEL: func.func @slice
// CHECK: %[[DRAM:.*]] = d2m.empty() : tensor<1x1x6x3x!ttcore.tile<32x32, f32>, #[[L:layout[0-9]*]]>
// CHECK: %[[IN:.*]] = d2m.to_layout %arg0, %[[DRAM]]
// CHECK: %[[VIEW:.*]] = d2m.view_layout %[[IN]] remapping = #map4 : tensor<1x1x6x3x!ttcore.tile<32x32, f32>, #[[L]]> -> tensor<1x1x2x2x!ttcore.tile<32x32, f32>
// CHECK: d2m.generic
// CHECK-NEXT: ins(%[[VIEW]] :
// CHECK: d2m.remote_load %{{.*}} %[[VIEW]]
func.func @slice(%a: tensor<1x6x20x96xf32>) -> tensor<1x2x20x64xf32> {
  %0 = "ttir.slice_static"(%a) <{begins = [0 : i32, 3 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 5 : i32, 20 : i32, 96 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x6x20x96xf32>) -> tensor<1x2x20x64xf32>
  return %0 : tensor<1x2x20x64xf32>
}

// -----

// A pad of a value other than 0.0: the zero pad of a tensor of ones marks the input's elements, the others take the
// value (the reader leaves what a view names outside its source zero).
// CHECK-LABEL: func.func @pad_value
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: %[[INSIDE:.*]] = d2m.to_layout %{{.*}} : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #{{.*}}> into tensor<41x64xf32>
// CHECK: %[[PADDED:.*]] = d2m.to_layout %{{.*}} : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #{{.*}}> into tensor<41x64xf32>
// CHECK: arith.constant 2.500000e+00 : f32
// CHECK: "d2m.tile_where"
func.func @pad_value(%a: tensor<40x64xf32>) -> tensor<41x64xf32> {
  %0 = "ttir.pad"(%a) <{padding = array<i32: 0, 1, 0, 0>, value = 2.500000e+00 : f32}> : (tensor<40x64xf32>) -> tensor<41x64xf32>
  return %0 : tensor<41x64xf32>
}
