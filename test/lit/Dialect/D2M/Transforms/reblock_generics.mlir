// RUN: ttmlir-opt --ttcore-register-device "--d2m-reblock-generics=test-buffer-size-policy=min" %s | FileCheck %s --check-prefix=MIN
// RUN: ttmlir-opt --ttcore-register-device "--d2m-reblock-generics=test-buffer-size-policy=max" %s | FileCheck %s --check-prefix=MAX
// RUN: ttmlir-opt --ttcore-register-device --d2m-reblock-generics %s | FileCheck %s --check-prefix=AUTO
// RUN: not ttmlir-opt --ttcore-register-device "--d2m-reblock-generics=test-buffer-size-policy=huge" %s 2>&1 | FileCheck %s --check-prefix=BAD
// d2m-reblock-generics gives each generic the block factors its policy picks: `min` one K tile a step, `max` the
// whole shard, `auto` (a single reduction) as many K steps as keep every reblocked operand shard at 4 tiles or
// more, (all parallel) as many blocks as keep them so. Operands are read through views onto the grid the new
// factors give them, the region's block buffers take the new block shape, a later reader of the output reads it
// through a view back.

#l1 = #ttcore.memory_space<l1>
#mapL = affine_map<(d0, d1, d2) -> (d0, d2)>
#mapR = affine_map<(d0, d1, d2) -> (d2, d1)>
#mapO = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#parallel = #ttcore.iterator_type<parallel>
#reduction = #ttcore.iterator_type<reduction>
!a = memref<1x1x2x8x!ttcore.tile<32x32, f32>, #ttcore.shard<32768x4096, 1>, #l1>
!b = memref<1x1x8x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
!c = memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
!e = memref<1x1x4x4x!ttcore.tile<32x32, f32>, #ttcore.shard<16384x4096, 1>, #l1>

// MIN-LABEL: func.func @matmul
// MIN: %[[A:.*]] = d2m.view_layout %{{.*}} : memref<1x1x2x8x{{.*}}> -> memref<1x8x2x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
// MIN: %[[B:.*]] = d2m.view_layout %{{.*}} : memref<1x1x8x2x{{.*}}> -> memref<8x1x1x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
// MIN: d2m.generic {block_factors = [1, 1, 8]
// MIN-NEXT: ins(%[[A]], %[[B]] :
// MIN: memref.alloc() : memref<2x1x!ttcore.tile<32x32, f32>, #l1>
// MIN-NEXT: d2m.remote_load {{.*}} %[[A]][
// MIN: memref.alloc() : memref<1x2x!ttcore.tile<32x32, f32>, #l1>
// MIN-NEXT: d2m.remote_load {{.*}} %[[B]][
// MIN: memref.alloc() : memref<2x2x!ttcore.tile<32x32, f32>, #l1>
// MAX-LABEL: func.func @matmul
// MAX-NOT: d2m.view_layout
// MAX: d2m.generic {block_factors = [1, 1, 1]
// AUTO-LABEL: func.func @matmul
// AUTO: d2m.view_layout %{{.*}} -> memref<1x4x2x2x
// AUTO: d2m.view_layout %{{.*}} -> memref<4x1x2x2x
// AUTO: d2m.generic {block_factors = [1, 1, 4]
// BAD: error: 'builtin.module' op invalid test-buffer-size-policy 'huge' (expected one of: auto, bounded, auto-mn, min, max)
func.func @matmul(%a: !a, %b: !b, %c: !c) {
  d2m.generic {block_factors = [1, 1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#mapL, #mapR, #mapO], iterator_types = [#parallel, #parallel, #reduction], threads = [#d2m.thread<unified>]}
      ins(%a, %b : !a, !b) outs(%c : !c) {
  ^unified0():
    %bf0 = d2m.get_block_factor(0) : index
    %bf1 = d2m.get_block_factor(1) : index
    %bf2 = d2m.get_block_factor(2) : index
    affine.for %i = 0 to %bf0 {
      affine.for %j = 0 to %bf1 {
        affine.for %k = 0 to %bf2 {
          %0 = memref.alloc() : memref<2x8x!ttcore.tile<32x32, f32>, #l1>
          d2m.remote_load %0 %a[%i, %k] : memref<2x8x!ttcore.tile<32x32, f32>, #l1>, !a
          %1 = memref.alloc() : memref<8x2x!ttcore.tile<32x32, f32>, #l1>
          d2m.remote_load %1 %b[%k, %j] : memref<8x2x!ttcore.tile<32x32, f32>, #l1>, !b
          %2 = memref.alloc() : memref<2x2x!ttcore.tile<32x32, f32>, #l1>
          linalg.generic {indexing_maps = [#mapL, #mapR, #mapO], iterator_types = ["parallel", "parallel", "reduction"]} ins(%0, %1 : memref<2x8x!ttcore.tile<32x32, f32>, #l1>, memref<8x2x!ttcore.tile<32x32, f32>, #l1>) outs(%2 : memref<2x2x!ttcore.tile<32x32, f32>, #l1>) {
          ^bb0(%x: !ttcore.tile<32x32, f32>, %y: !ttcore.tile<32x32, f32>, %z: !ttcore.tile<32x32, f32>):
            %r = "d2m.tile_matmul"(%x, %y, %z) : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
            linalg.yield %r : !ttcore.tile<32x32, f32>
          }
          d2m.remote_store %c[%i, %j] %2 : !c, memref<2x2x!ttcore.tile<32x32, f32>, #l1>
        } {d2m.blocking_loop = 2}
      } {d2m.blocking_loop = 1}
    } {d2m.blocking_loop = 0}
  }
  return
}

// AUTO-LABEL: func.func @eltwise
// AUTO: %[[IN:.*]] = d2m.view_layout %{{.*}} -> memref<4x1x1x4x
// AUTO: %[[OUT:.*]] = d2m.view_layout %[[E:[^ ]*]] remapping {{.*}} -> memref<4x1x1x4x
// AUTO: d2m.generic {block_factors = [4, 1]
// AUTO: memref.alloc() : memref<1x4x!ttcore.tile<32x32, f32>, #l1>
// AUTO: %[[BACK:.*]] = d2m.view_layout %[[OUT]] {{.*}} -> memref<1x1x4x4x
// AUTO: memref.copy %[[BACK]]
// MIN-LABEL: func.func @eltwise
// MIN-NOT: d2m.view_layout
// MIN: d2m.generic {block_factors = [1, 1]
func.func @eltwise(%in: !e, %dst: !e) {
  %out = memref.alloc() : !e
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#parallel, #parallel], threads = [#d2m.thread<unified>]}
      ins(%in : !e) outs(%out : !e) {
  ^unified0():
    %bf0 = d2m.get_block_factor(0) : index
    %bf1 = d2m.get_block_factor(1) : index
    affine.for %i = 0 to %bf0 {
      affine.for %j = 0 to %bf1 {
        %0 = memref.alloc() : memref<4x4x!ttcore.tile<32x32, f32>, #l1>
        d2m.remote_load %0 %in[%i, %j] : memref<4x4x!ttcore.tile<32x32, f32>, #l1>, !e
        %1 = memref.alloc() : memref<4x4x!ttcore.tile<32x32, f32>, #l1>
        linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : memref<4x4x!ttcore.tile<32x32, f32>, #l1>) outs(%1 : memref<4x4x!ttcore.tile<32x32, f32>, #l1>) {
        ^bb0(%x: !ttcore.tile<32x32, f32>, %z: !ttcore.tile<32x32, f32>):
          %r = "d2m.tile_exp"(%x) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
          linalg.yield %r : !ttcore.tile<32x32, f32>
        }
        d2m.remote_store %out[%i, %j] %1 : !e, memref<4x4x!ttcore.tile<32x32, f32>, #l1>
      } {d2m.blocking_loop = 1}
    } {d2m.blocking_loop = 0}
  }
  "memref.copy"(%out, %dst) : (!e, !e) -> ()
  return
}
