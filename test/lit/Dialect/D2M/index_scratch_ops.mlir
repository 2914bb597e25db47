// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// The region index ops (block offsets, block factors, core coordinates), the scratch ops and affine loops read and
// print in upstream's syntax.

!tile = !ttcore.tile<32x32, bf16>
!dev = memref<1x1x2x2x!tile, #ttcore.shard<4096x2048, 1>, #ttcore.memory_space<l1>>

// CHECK-LABEL: func.func @region_indices

func.func @region_indices(%in: !dev, %out: !dev) {
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [#ttcore.iterator_type<parallel>, #ttcore.iterator_type<parallel>], threads = [#d2m.thread<unified>]}
      ins(%in : !dev) outs(%out : !dev) {
  ^unified0:
    // CHECK: %[[BF:.*]] = d2m.get_block_factor(0) : index
    %bf = d2m.get_block_factor(0) : index
    // CHECK: affine.for %[[I:.*]] = 0 to %[[BF]] {
    affine.for %i = 0 to %bf {
      // CHECK: d2m.block_offset(1) : index
      %off = d2m.block_offset(1) : index
      // CHECK: d2m.core_index(0) : index
      %core = d2m.core_index(0) : index
      // CHECK: d2m.core_index(1) {phys_to_virt_map = #map{{[0-9]*}}} : index
      %vcore = d2m.core_index(1) {phys_to_virt_map = affine_map<(d0, d1) -> (d1, d0)>} : index
    // CHECK: } {d2m.blocking_loop = 0 : i64}
    } {d2m.blocking_loop = 0}
    // CHECK: %[[BUF:.*]] = memref.alloc() {d2m.scratch_buffer} : memref<1x4x!ttcore.tile<32x32, bf16>, #l1>
    %buf = memref.alloc() {d2m.scratch_buffer} : memref<1x4x!tile, #ttcore.memory_space<l1>>
    // CHECK: d2m.scratch_init %[[BUF]] : memref<1x4x!ttcore.tile<32x32, bf16>, #l1>
    d2m.scratch_init %buf : memref<1x4x!tile, #ttcore.memory_space<l1>>
    // CHECK: d2m.scratch_allocate {slot = 3 : i64} : memref<2x!ttcore.tile<32x32, bf16>, #l1>
    %s = d2m.scratch_allocate {slot = 3 : i64} : memref<2x!tile, #ttcore.memory_space<l1>>
  }
  return
}
