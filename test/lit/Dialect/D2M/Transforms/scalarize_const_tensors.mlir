// RUN: ttmlir-opt --d2m-scalarize-const-tensors %s | FileCheck %s
// d2m-scalarize-const-tensors: a filled tensor (a generic filling tiles with one constant) that a tile op takes
// as its right operand, where that may be a scalar, is read as the scalar: the constant is made in the op's body,
// the tile input, its load and the generic's operand go, and the fill goes once nothing else reads it. A tile op
// taking tiles only (tile_maximum), or the fill as its left operand, keeps reading the tensor.

#map = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>
#layout = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
!t = tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #layout>
!b = tensor<2x2x!ttcore.tile<32x32, bf16>>

// CHECK-LABEL: func.func @scaled
// CHECK-NOT: d2m.tile_fill
// CHECK: d2m.generic
// CHECK-NEXT: ins(%arg0 : tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #layout>)
// CHECK: linalg.generic {indexing_maps = [#map, #map], {{.*}} ins(%{{.*}} : tensor<2x2x!ttcore.tile<32x32, bf16>>)
// CHECK-NEXT: ^bb0(%[[T:.*]]: !ttcore.tile<32x32, bf16>, %{{.*}}: !ttcore.tile<32x32, bf16>):
// CHECK-NEXT: %[[S:.*]] = arith.constant 3.000000e+00 : bf16
// CHECK-NEXT: "d2m.tile_mul"(%[[T]], %[[S]]) : (!ttcore.tile<32x32, bf16>, bf16) -> !ttcore.tile<32x32, bf16>
// CHECK: return
func.func @scaled(%arg0: !t) -> !t {
  %e = d2m.empty() : !t
  %fill = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#map], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]}
      ins() outs(%e : !t) {
    %fe = tensor.empty() : !b
    %fl = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%fe : !b) {
    ^bb0(%o: !ttcore.tile<32x32, bf16>):
      %c = arith.constant 3.0 : bf16
      %ft = d2m.tile_fill(%c) : bf16 -> <32x32, bf16>
      linalg.yield %ft : !ttcore.tile<32x32, bf16>
    } -> !b
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %st = d2m.remote_store %e[%i, %j] %fl : !t, !b -> !t
    d2m.yield %st : (!t)
  } : !t
  %view = d2m.view_layout %fill remapping = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)> : !t -> !t
  %oprod = d2m.empty() : !t
  %prod = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#map, #map, #map], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]}
      ins(%arg0, %view : !t, !t) outs(%oprod : !t) {
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %b0 = tensor.empty() : !b
    %b1 = tensor.empty() : !b
    %l0 = d2m.remote_load %b0 %arg0[%i, %j] : !b, !t -> !b
    %l1 = d2m.remote_load %b1 %view[%i, %j] : !b, !t -> !b
    %out = tensor.empty() : !b
    %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%l0, %l1 : !b, !b) outs(%out : !b) {
    ^bb0(%x: !ttcore.tile<32x32, bf16>, %y: !ttcore.tile<32x32, bf16>, %z: !ttcore.tile<32x32, bf16>):
      %v = "d2m.tile_mul"(%x, %y) : (!ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
      linalg.yield %v : !ttcore.tile<32x32, bf16>
    } -> !b
    d2m.yield %r : (!b)
  } : !t
  return %prod : !t
}

// CHECK-LABEL: func.func @kept
// CHECK: d2m.tile_fill
// CHECK: "d2m.tile_maximum"(%{{.*}}, %{{.*}}) : (!ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>)
// CHECK: "d2m.tile_sub"(%{{.*}}, %{{.*}}) : (!ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>)
func.func @kept(%arg0: !t) -> (!t, !t) {
  %e = d2m.empty() : !t
  %fill = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#map], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]}
      ins() outs(%e : !t) {
    %fe = tensor.empty() : !b
    %fl = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%fe : !b) {
    ^bb0(%o: !ttcore.tile<32x32, bf16>):
      %c = arith.constant 3.0 : bf16
      %ft = d2m.tile_fill(%c) : bf16 -> <32x32, bf16>
      linalg.yield %ft : !ttcore.tile<32x32, bf16>
    } -> !b
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %st = d2m.remote_store %e[%i, %j] %fl : !t, !b -> !t
    d2m.yield %st : (!t)
  } : !t
  %omax = d2m.empty() : !t
  %max = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#map, #map, #map], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]}
      ins(%arg0, %fill : !t, !t) outs(%omax : !t) {
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %b0 = tensor.empty() : !b
    %b1 = tensor.empty() : !b
    %l0 = d2m.remote_load %b0 %arg0[%i, %j] : !b, !t -> !b
    %l1 = d2m.remote_load %b1 %fill[%i, %j] : !b, !t -> !b
    %out = tensor.empty() : !b
    %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%l0, %l1 : !b, !b) outs(%out : !b) {
    ^bb0(%x: !ttcore.tile<32x32, bf16>, %y: !ttcore.tile<32x32, bf16>, %z: !ttcore.tile<32x32, bf16>):
      %v = "d2m.tile_maximum"(%x, %y) : (!ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
      linalg.yield %v : !ttcore.tile<32x32, bf16>
    } -> !b
    d2m.yield %r : (!b)
  } : !t
  %odiff = d2m.empty() : !t
  %diff = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#map, #map, #map], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]}
      ins(%fill, %arg0 : !t, !t) outs(%odiff : !t) {
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %b0 = tensor.empty() : !b
    %b1 = tensor.empty() : !b
    %l0 = d2m.remote_load %b0 %fill[%i, %j] : !b, !t -> !b
    %l1 = d2m.remote_load %b1 %arg0[%i, %j] : !b, !t -> !b
    %out = tensor.empty() : !b
    %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%l0, %l1 : !b, !b) outs(%out : !b) {
    ^bb0(%x: !ttcore.tile<32x32, bf16>, %y: !ttcore.tile<32x32, bf16>, %z: !ttcore.tile<32x32, bf16>):
      %v = "d2m.tile_sub"(%x, %y) : (!ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
      linalg.yield %v : !ttcore.tile<32x32, bf16>
    } -> !b
    d2m.yield %r : (!b)
  } : !t
  return %max, %diff : !t, !t
}
