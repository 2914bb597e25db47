// RUN: not ttmlir-opt --ttcore-register-device --split-input-file %s 2>&1 | FileCheck %s
// A generic on a virtual grid writing through a view of an L1 buffer: the buffer's cores (its forward mapping:
// a 1x12 grid folded onto 3x4 cores) and the grid's inverse mapping imply a 1x12 grid, which the view must
// present over the buffer's grid.

#l1 = #ttcore.memory_space<l1>
#id = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>
#fwd = affine_map<(d0, d1, d2, d3) -> (d1 floordiv 4, d1 mod 4, d2, d3)>
#inv = affine_map<(d0, d1) -> (0, 0, d0 * 4 + d1)>

// CHECK-NOT: error
func.func @same_grid() {
  %buf = memref.alloc() {d2m.virtualGridForwardMapping = #fwd, d2m.virtualGridInverseMapping = #inv} : memref<1x12x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
  %view = d2m.view_layout %buf remapping = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)> : memref<1x12x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1> -> memref<1x12x1x1x!ttcore.tile<32x32, f32>, #ttcore.view<4>, #l1>
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x12, virt_to_physical_map = (d0, d1) -> (0, d1 floordiv 4, d1 mod 4), physical_to_virt_map = (d0, d1) -> (0, 0, d0 * 4 + d1)>, indexing_maps = [#id], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]}
      ins() outs(%view : memref<1x12x1x1x!ttcore.tile<32x32, f32>, #ttcore.view<4>, #l1>) {
  ^unified0:
  }
  return
}

// -----

#l1 = #ttcore.memory_space<l1>
#id = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>
#fwd = affine_map<(d0, d1, d2, d3) -> (d1 floordiv 4, d1 mod 4, d2, d3)>
#inv = affine_map<(d0, d1) -> (0, 0, d0 * 4 + d1)>

func.func @transposed_grid() {
  %buf = memref.alloc() {d2m.virtualGridForwardMapping = #fwd, d2m.virtualGridInverseMapping = #inv} : memref<1x12x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
  %view = d2m.view_layout %buf remapping = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)> : memref<1x12x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1> -> memref<1x12x1x1x!ttcore.tile<32x32, f32>, #ttcore.view<4>, #l1>
  // CHECK: error: 'd2m.generic' op output grid shape does not match implied virtual grid shape from physical grid and inverse mapping
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x12, virt_to_physical_map = (d0, d1) -> (0, d1 floordiv 4, d1 mod 4), physical_to_virt_map = (d0, d1) -> (0, 0, d0 * 4 + d1)>, indexing_maps = [#id], iterator_types = [#par, #par], threads = [#d2m.thread<unified>]}
      ins() outs(%view : memref<1x12x1x1x!ttcore.tile<32x32, f32>, #ttcore.view<4>, #l1>) {
  ^unified0:
  }
  return
}
