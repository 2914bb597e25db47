// RUN: not ttmlir-opt --split-input-file %s 2>&1 | FileCheck %s
// The generic verifier: grids against maps and block factors, regions against threads, compute ops against the
// thread of their region, and CBs against what they move.

#l1 = #ttcore.memory_space<l1>
#id = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>

func.func @grid_mismatch(%a: memref<2x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>, %b: memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  // CHECK: [[# @LINE + 1]]:3: error: 'd2m.generic' op grid shape mismatch between operand[0] grid_shape=[2, 1] and operand[1] grid_shape=[1, 1] at affine dim d0
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#par, #par], threads = [#d2m.thread<compute>]}
      ins(%a : memref<2x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>)
      outs(%b : memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  ^compute0:
  }
  return
}

// -----

#l1 = #ttcore.memory_space<l1>
#id = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>

func.func @blocking(%a: memref<1x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  // CHECK: error: 'd2m.generic' op grid dim unexpected for operand[0] grid_shape=[1, 2] expected grid_shape=[1, 4] at affine dim d1
  d2m.generic {block_factors = [1, 4], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#par, #par], threads = [#d2m.thread<compute>]}
      ins(%a : memref<1x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>)
      outs(%a : memref<1x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  ^compute0:
  }
  return
}

// -----

#l1 = #ttcore.memory_space<l1>

func.func @threads_and_regions(%a: memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  // CHECK: error: 'd2m.generic' op number of regions must match the number of threads
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>, #d2m.thread<datamovement>]}
      ins() outs(%a : memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  ^compute0:
  }
  return
}

// -----

#l1 = #ttcore.memory_space<l1>

func.func @no_symbol(%a: memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  // CHECK: error: 'd2m.generic' op threads must have a kernel symbol in external symbol form (i.e. without regions)
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins() outs(%a : memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>)
  return
}

// -----

#l1 = #ttcore.memory_space<l1>

func.func @compute_in_datamovement(%a: memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>, %t: !ttcore.tile<32x32, f32>) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins() outs(%a : memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>) {
  ^datamovement0:
    // CHECK: error: 'd2m.tile_exp' op expected to be in a compute or unified region
    %e = "d2m.tile_exp"(%t) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
  }
  return
}

// -----

#l1 = #ttcore.memory_space<l1>
#layout = #ttcore.metal_layout<logical_shape = 32x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, dram, sharded>

func.func @cb_of_a_tensor(%src: tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #layout>, %cb: !d2m.cb<memref<1x1x!ttcore.tile<32x32, f32>, #l1>>) {
  %c0 = arith.constant 0 : index
  // CHECK: error: 'd2m.remote_load' op tensor parameters are not allowed in explicit CB form; memref operand must be a memref type
  d2m.remote_load %src[%c0, %c0] into %cb : tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #layout> into !d2m.cb<memref<1x1x!ttcore.tile<32x32, f32>, #l1>>
  return
}
