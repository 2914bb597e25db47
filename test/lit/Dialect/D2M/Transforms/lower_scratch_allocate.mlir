// RUN: ttmlir-opt --split-input-file --verify-diagnostics --d2m-lower-scratch-allocate %s | FileCheck %s
// Scratch slots become subviews of the region's 1xN scratch buffer, largest first; a smaller slot whose uses all
// come after a larger one's last use shares its elements (so the buffer holds 4 + 1 here); a slot of rank 2 is the subview expanded to its shape.

!tile = !ttcore.tile<32x32, bf16>
!dev = memref<1x1x2x2x!tile, #ttcore.shard<4096x2048, 1>, #ttcore.memory_space<l1>>

// CHECK-LABEL: func.func @slots
func.func @slots(%in: !dev, %out: !dev) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%in : !dev) outs(%out : !dev) {
  ^unified0:
    %c0 = arith.constant 0 : index
    // CHECK: %[[BUF:.*]] = memref.alloc() : memref<1x5x!ttcore.tile<32x32, bf16>, #l1>
    // CHECK-NOT: d2m.scratch_init
    %buf = memref.alloc() : memref<1x5x!tile, #ttcore.memory_space<l1>>
    d2m.scratch_init %buf : memref<1x5x!tile, #ttcore.memory_space<l1>>
    %t = memref.load %in[%c0, %c0, %c0, %c0] : !dev
    // CHECK: %[[BIG:.*]] = memref.subview %[[BUF]][0, 0] [1, 4] [1, 1] : memref<1x5x{{.*}}> to memref<4x!ttcore.tile<32x32, bf16>, #l1>
    // CHECK: memref.expand_shape %[[BIG]] {{\[\[}}0, 1]] output_shape [2, 2] : memref<4x{{.*}}> into memref<2x2x!ttcore.tile<32x32, bf16>, #l1>
    %big = d2m.scratch_allocate {slot = 0 : i64} : memref<2x2x!tile, #ttcore.memory_space<l1>>
    // live while the big slot is: placed after its footprint
    // CHECK: memref.subview %[[BUF]][0, 4] [1, 1] [1, 1] : memref<1x5x{{.*}}> to memref<1x!ttcore.tile<32x32, bf16>, strided<[1], offset: 4>, #l1>
    %keep = d2m.scratch_allocate {slot = 3 : i64} : memref<1x!tile, #ttcore.memory_space<l1>>
    memref.store %t, %keep[%c0] : memref<1x!tile, #ttcore.memory_space<l1>>
    memref.store %t, %big[%c0, %c0] : memref<2x2x!tile, #ttcore.memory_space<l1>>
    %u = memref.load %big[%c0, %c0] : memref<2x2x!tile, #ttcore.memory_space<l1>>
    // both used after the big slot is dead: packed into its elements, the larger first
    // CHECK: memref.subview %[[BUF]][0, 2] [1, 1] [1, 1] : memref<1x5x{{.*}}> to memref<1x!ttcore.tile<32x32, bf16>, strided<[1], offset: 2>, #l1>
    %late = d2m.scratch_allocate {slot = 1 : i64} : memref<1x!tile, #ttcore.memory_space<l1>>
    // CHECK: memref.subview %[[BUF]][0, 0] [1, 2] [1, 1] : memref<1x5x{{.*}}> to memref<2x!ttcore.tile<32x32, bf16>, #l1>
    %pair = d2m.scratch_allocate {slot = 2 : i64} : memref<2x!tile, #ttcore.memory_space<l1>>
    memref.store %u, %late[%c0] : memref<1x!tile, #ttcore.memory_space<l1>>
    memref.store %u, %pair[%c0] : memref<2x!tile, #ttcore.memory_space<l1>>
    %v = memref.load %late[%c0] : memref<1x!tile, #ttcore.memory_space<l1>>
    %w = memref.load %pair[%c0] : memref<2x!tile, #ttcore.memory_space<l1>>
    %x = memref.load %keep[%c0] : memref<1x!tile, #ttcore.memory_space<l1>>
    // CHECK-NOT: d2m.scratch_allocate
    memref.store %v, %out[%c0, %c0, %c0, %c0] : !dev
    memref.store %w, %out[%c0, %c0, %c0, %c0] : !dev
    memref.store %x, %out[%c0, %c0, %c0, %c0] : !dev
  }
  return
}

// -----

!tile = !ttcore.tile<32x32, bf16>
!dev = memref<1x1x2x2x!tile, #ttcore.shard<4096x2048, 1>, #ttcore.memory_space<l1>>

func.func @too_small(%in: !dev, %out: !dev) {
  // expected-error @+1 {{'d2m.generic' op peak scratch usage (5 elements) exceed scratch buffer capacity (4 elements)}}
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%in : !dev) outs(%out : !dev) {
  ^unified0:
    %c0 = arith.constant 0 : index
    %buf = memref.alloc() : memref<1x4x!tile, #ttcore.memory_space<l1>>
    d2m.scratch_init %buf : memref<1x4x!tile, #ttcore.memory_space<l1>>
    %a = d2m.scratch_allocate {slot = 0 : i64} : memref<3x!tile, #ttcore.memory_space<l1>>
    %b = d2m.scratch_allocate {slot = 1 : i64} : memref<2x!tile, #ttcore.memory_space<l1>>
    %t = memref.load %a[%c0] : memref<3x!tile, #ttcore.memory_space<l1>>
    memref.store %t, %b[%c0] : memref<2x!tile, #ttcore.memory_space<l1>>
    %u = memref.load %b[%c0] : memref<2x!tile, #ttcore.memory_space<l1>>
    memref.store %u, %a[%c0] : memref<3x!tile, #ttcore.memory_space<l1>>
  }
  return
}
