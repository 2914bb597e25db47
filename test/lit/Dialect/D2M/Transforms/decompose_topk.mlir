// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --ttcore-one-shot-bufferize --d2m-insert-scratch-buffers --d2m-decompose-topk %s | FileCheck %s
// d2m-insert-scratch-buffers gives a leaf's generic its index buffer (one si32 tile per value tile) and lane
// buffer; d2m-decompose-topk drops their anchors, builds the index buffer (column-major lane arange, each tile
// the lane's column 0 spread plus its offset) and writes the merge tree over each non-target row's tiles.

// Three reduction tiles (ragged), k = 8: level 0 pairs (0, 1) and sorts the odd tile 2 alone, the middle loop
// has no trips, the last level pairs (0, 2) from the outputs and rebuilds the best 8.
// CHECK-LABEL: func.func @three_tiles
// CHECK: %[[INDEX:.*]] = memref.alloc() {d2m.scratch_buffer, d2m.topk_index_buffer} : memref<2x3x!ttcore.tile<32x32, si32>, #l1>
// CHECK-NEXT: %[[LANE:.*]] = memref.alloc() {d2m.scratch_buffer, d2m.topk_lane_buffer} : memref<2x1x!ttcore.tile<32x32, si32>, #l1>
// CHECK-NOT: d2m.scratch_init
// CHECK: "d2m.arange_block"(%{{.*}}, %[[LANE]]) <{colMajor = true, num_elements = 32 : i64, start = 0 : i64, step = 1 : i64}>
// CHECK-NEXT: d2m.unpack_stall_on_pack
// CHECK: %[[L:.*]] = memref.load %[[LANE]]
// CHECK-NEXT: %[[COL:.*]] = "d2m.tile_bcast"(%[[L]]) <{bcast_type = #d2m<tile_bcast_type col>}>
// CHECK: %[[OFF:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: %[[IDX:.*]] = "d2m.tile_add"(%[[COL]], %[[OFF]])
// CHECK-NEXT: memref.store %[[IDX]], %[[INDEX]]
// CHECK: } {d2m.linalg_root, d2m.scheduled}
// CHECK: d2m.unpack_stall_on_pack
// CHECK: "d2m.tile_topk_local_sort"({{.*}}%[[INDEX]]{{.*}}) <{i_end_phase = 4 : i32, idir = 0 : i32, is_group_start = true}>
// CHECK-NEXT: arith.constant true
// CHECK-NEXT: "d2m.tile_topk_merge"({{.*}}) <{is_group_start = false, k = 32 : i32}>
// CHECK: "d2m.tile_topk_local_sort"({{.*}}) <{i_end_phase = 4 : i32, idir = 0 : i32, is_group_start = true}>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: "d2m.tile_topk_merge"({{.*}}) <{is_group_start = false, k = 32 : i32}>
// CHECK: "d2m.tile_topk_rebuild"({{.*}}) <{idir = 0 : i32, is_group_start = false, k = 8 : i32, logk = 5 : i32, skip_second = 1 : i32}>
// CHECK-NOT: d2m.topk_block
func.func @three_tiles(%arg0: tensor<64x96xf32>) -> (tensor<64x8xf32>, tensor<64x8xsi32>) {
  %v, %i = "ttir.topk"(%arg0) <{k = 8 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<64x96xf32>) -> (tensor<64x8xf32>, tensor<64x8xsi32>)
  return %v, %i : tensor<64x8xf32>, tensor<64x8xsi32>
}

// k > 32 over three tiles: the accumulator (0, 1) sorted, merged and rebuilt as 64-runs; no complete right pair;
// the odd tail primed as two 32-runs of itself (a 64-run over its two copies would lose half of it), then folded in
// twice from the outputs.
// CHECK-LABEL: func.func @large_k_odd
// CHECK: "d2m.tile_topk_local_sort"({{.*}}) <{i_end_phase = 5 : i32, idir = 0 : i32, is_group_start = true}>
// CHECK: "d2m.tile_topk_merge"({{.*}}) <{is_group_start = false, k = 64 : i32}>
// CHECK: "d2m.tile_topk_rebuild"({{.*}}) <{idir = 0 : i32, is_group_start = false, k = 64 : i32, logk = 6 : i32, skip_second = 0 : i32}>
// CHECK-NOT: scf.for
// CHECK: "d2m.tile_topk_local_sort"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[T:.*]], %[[T]], %{{.*}}, %{{.*}}) <{i_end_phase = 4 : i32
// CHECK-COUNT-2: "d2m.tile_topk_rebuild"
func.func @large_k_odd(%arg0: tensor<32x96xf32>) -> (tensor<32x64xf32>, tensor<32x64xsi32>) {
  %v, %i = "ttir.topk"(%arg0) <{k = 64 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<32x96xf32>) -> (tensor<32x64xf32>, tensor<32x64xsi32>)
  return %v, %i : tensor<32x64xf32>, tensor<32x64xsi32>
}

// dim 0: the reduction runs down the shard's rows (3 non-target tiles wide): the index loops run the non-target
// tiles outer, each index tile stored at (reduction tile, non-target tile); the tree's pairs are 3 flat tiles apart.
// CHECK-LABEL: func.func @first_dim
// CHECK: scf.for %[[NT:.*]] = %{{.*}} to %c3 step
// CHECK: scf.for %[[RED:.*]] = %{{.*}} to %c2{{.*}} step
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[RED]], %[[NT]]]
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %c3{{.*}} step
// CHECK: %[[THREE:.*]] = arith.constant 3 : index
// CHECK-NEXT: arith.muli %{{.*}}, %[[THREE]] : index
func.func @first_dim(%arg0: tensor<64x96xf32>) -> (tensor<4x96xf32>, tensor<4x96xsi32>) {
  %v, %i = "ttir.topk"(%arg0) <{k = 4 : i32, dim = 0 : i32, largest = true, sorted = true}> : (tensor<64x96xf32>) -> (tensor<4x96xf32>, tensor<4x96xsi32>)
  return %v, %i : tensor<4x96xf32>, tensor<4x96xsi32>
}
