// RUN: ttmlir-opt --split-input-file --verify-diagnostics --d2m-generic-linearize-memref %s | FileCheck %s
// Accesses of multi-dimensional L1 memrefs go through one collapsed memref each, at a row-major index over the
// row-major memref (another layout is refused); a buffer an implicit load fills is collapsed after the load, a generic operand at the top of
// the region. 1-d, host and DRAM memrefs keep their accesses.

!tile = !ttcore.tile<32x32, bf16>
!dev = memref<1x1x2x3x!tile, #ttcore.shard<6144x2048, 1>, #ttcore.memory_space<dram>>
!blk = memref<2x3x!tile, #ttcore.memory_space<l1>>

// CHECK: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0 * 3 + d1)>
// CHECK: #[[COL:.*]] = affine_map<(d0, d1) -> (d0 * 2 + d1)>
// CHECK-LABEL: func.func @accesses
func.func @accesses(%in: !dev, %out: !dev, %t: memref<3x2x!tile, #ttcore.memory_space<l1>>, %flat: memref<4x!tile, #ttcore.memory_space<l1>>) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%in, %t : !dev, memref<3x2x!tile, #ttcore.memory_space<l1>>) outs(%out : !dev) {
  ^unified0:
    // CHECK: d2m.generic
    // CHECK: %[[CT:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<3x2x{{.*}}> into memref<6x!ttcore.tile<32x32, bf16>, #l1>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // CHECK: %[[BUF:.*]] = memref.alloc()
    // CHECK-NEXT: d2m.remote_load %[[BUF]]
    // CHECK-NEXT: %[[CB:.*]] = memref.collapse_shape %[[BUF]] {{\[\[}}0, 1]] : memref<2x3x{{.*}}> into memref<6x
    %buf = memref.alloc() : !blk
    d2m.remote_load %buf %in[%c0, %c0] : !blk, !dev
    // CHECK: %[[I:.*]] = affine.apply #[[ROW]](%{{.*}}, %{{.*}})
    // CHECK-NEXT: %[[A:.*]] = memref.load %[[CB]][%[[I]]] : memref<6x
    %a = memref.load %buf[%c1, %c0] : !blk
    // CHECK: %[[J:.*]] = affine.apply #[[COL]](%{{.*}}, %{{.*}})
    // CHECK-NEXT: memref.store %[[A]], %[[CT]][%[[J]]]
    memref.store %a, %t[%c0, %c1] : memref<3x2x!tile, #ttcore.memory_space<l1>>
    // CHECK: memref.store %[[A]], %{{.*}}[%{{.*}}] : memref<4x
    memref.store %a, %flat[%c1] : memref<4x!tile, #ttcore.memory_space<l1>>
    // CHECK: memref.store %[[A]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x1x2x3x
    memref.store %a, %out[%c0, %c0, %c1, %c1] : !dev
  }
  return
}

// -----

!tile = !ttcore.tile<32x32, bf16>

func.func @transposed(%t: memref<3x2x!tile, affine_map<(d0, d1) -> (d1, d0)>, #ttcore.memory_space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.load' op cannot linearize an access to a memref of layout affine_map<(d0, d1) -> (d1, d0)>: only row-major memrefs collapse to one dimension}}
  %a = memref.load %t[%c0, %c0] : memref<3x2x!tile, affine_map<(d0, d1) -> (d1, d0)>, #ttcore.memory_space<l1>>
  return
}
