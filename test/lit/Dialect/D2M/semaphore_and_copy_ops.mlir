// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// Global semaphores, the indexed row copy and the block tilize/untilize ops read and print in upstream's syntax.

!sem_buf = memref<8x8x1x1xui32, #ttcore.shard<4x4, 1>, #ttcore.memory_space<l1>>
!rows = memref<32x32xf32, #ttcore.memory_space<l1>>
!tiles = memref<1x1x!ttcore.tile<32x32, f32>, #ttcore.memory_space<l1>>

// CHECK-LABEL: func.func @ops
func.func @ops(%buf: !sem_buf, %idx: memref<1x1x2x4xi32, #ttcore.memory_space<l1>>, %w: memref<1x1x8x16xf32, #ttcore.memory_space<l1>>, %r: !rows, %t: !tiles) {
  // CHECK: %[[S:.*]] = d2m.create_global_semaphore(%{{.*}}) {value = 0 : ui32} : memref<8x8x1x1xui32, {{.*}}> -> !d2m.global_semaphore
  %s = d2m.create_global_semaphore(%buf) {value = 0 : ui32} : !sem_buf -> !d2m.global_semaphore
  // CHECK: d2m.reset_global_semaphore(%[[S]]) {value = 3 : ui32} : !d2m.global_semaphore
  d2m.reset_global_semaphore(%s) {value = 3 : ui32} : !d2m.global_semaphore
  %is = memref.alloc() : memref<1x1024xi32, #ttcore.memory_space<l1>>
  %rs = memref.alloc() : memref<1x1024xf32, #ttcore.memory_space<l1>>
  // CHECK: d2m.indexed_row_copy %{{.*}}, %{{.*}}, %{{.*}} scratch %{{.*}}, %{{.*}}<8, 16> {indicesShape = array<i64: 2, 4>} : memref<1x1x2x4xi32, #l1>, memref<1x1x8x16xf32, #l1>, memref<1x1x8x16xf32, #l1>, memref<1x1024xi32, #l1>, memref<1x1024xf32, #l1>
  d2m.indexed_row_copy %idx, %w, %w scratch %is, %rs<8, 16> {indicesShape = array<i64: 2, 4>} : memref<1x1x2x4xi32, #ttcore.memory_space<l1>>, memref<1x1x8x16xf32, #ttcore.memory_space<l1>>, memref<1x1x8x16xf32, #ttcore.memory_space<l1>>, memref<1x1024xi32, #ttcore.memory_space<l1>>, memref<1x1024xf32, #ttcore.memory_space<l1>>
  // CHECK: "d2m.tile_tilize_block"(%{{.*}}, %{{.*}}) : (memref<32x32xf32, #l1>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>) -> memref<1x1x!ttcore.tile<32x32, f32>, #l1>
  %0 = "d2m.tile_tilize_block"(%r, %t) : (!rows, !tiles) -> !tiles
  // CHECK: "d2m.tile_untilize_block"(%{{.*}}, %{{.*}}) : (memref<1x1x!ttcore.tile<32x32, f32>, #l1>, memref<32x32xf32, #l1>) -> ()
  "d2m.tile_untilize_block"(%t, %r) : (!tiles, !rows) -> ()
  return
}
