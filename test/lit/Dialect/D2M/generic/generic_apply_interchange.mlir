// RUN: ttmlir-opt --ttcore-register-device --d2m-generic-apply-interchange="matmul-interchange=2,0,1" %s | FileCheck %s
// RUN: not ttmlir-opt --d2m-generic-apply-interchange="matmul-interchange=0,0,1" %s 2>&1 | FileCheck %s --check-prefix=BAD
// The innermost three loop dims of a matmul-shaped generic are permuted (k outermost of them); a leading batch dim
// stays in place, iterators follow their dims and block indices are renumbered.
// Generics of other shapes are left alone.

#l1 = #ttcore.memory_space<l1>
#parallel = #ttcore.iterator_type<parallel>
#reduction = #ttcore.iterator_type<reduction>

// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @batched
// CHECK: d2m.generic {block_factors = [1, 1, 1, 1], grid = #ttcore.grid<1x1x1>, indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = [#parallel, #reduction, #parallel, #parallel]
// CHECK: d2m.block_index(0)
// CHECK-NEXT: d2m.block_index(2)
// CHECK-NEXT: d2m.block_index(3)
// CHECK-NEXT: d2m.block_index(1)
func.func @batched(%a: memref<1x1x1x1x2x5x!ttcore.tile<32x32, f32>, #ttcore.shard<40960x20480x4096, 1>, #l1>,
                   %b: memref<1x1x1x1x5x3x!ttcore.tile<32x32, f32>, #ttcore.shard<61440x12288x4096, 1>, #l1>,
                   %c: memref<1x1x1x1x2x3x!ttcore.tile<32x32, f32>, #ttcore.shard<24576x12288x4096, 1>, #l1>) {
  d2m.generic {block_factors = [1, 1, 1, 1], grid = #ttcore.grid<1x1x1>,
               indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
               iterator_types = [#parallel, #parallel, #parallel, #reduction], threads = [#d2m.thread<compute>]}
      ins(%a, %b : memref<1x1x1x1x2x5x!ttcore.tile<32x32, f32>, #ttcore.shard<40960x20480x4096, 1>, #l1>, memref<1x1x1x1x5x3x!ttcore.tile<32x32, f32>, #ttcore.shard<61440x12288x4096, 1>, #l1>)
      outs(%c : memref<1x1x1x1x2x3x!ttcore.tile<32x32, f32>, #ttcore.shard<24576x12288x4096, 1>, #l1>) {
  ^compute0:
    %b0 = d2m.block_index(0) : index
    %b1 = d2m.block_index(1) : index
    %b2 = d2m.block_index(2) : index
    %b3 = d2m.block_index(3) : index
  }
  return
}

// CHECK-LABEL: func.func @eltwise
// CHECK: d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#[[ID]], #[[ID]]], iterator_types = [#parallel, #parallel]
func.func @eltwise(%a: memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>,
                   %c: memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) {
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>,
               indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
               iterator_types = [#parallel, #parallel], threads = [#d2m.thread<compute>]}
      ins(%a : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>)
      outs(%c : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) {
  ^compute0:
  }
  return
}

// BAD: error: matmul-interchange must be a permutation of 0,1,2
