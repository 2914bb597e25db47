// RUN: ttmlir-opt --split-input-file --verify-diagnostics --d2m-normalize-thread-args %s | FileCheck %s
// Regions reach the generic's operands through d2m.get_arg, one per region using them (inserted at the region's top,
// the later operands first); CB handles are compile-time, buffers, semaphores and scalars run-time.

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
!blk = memref<1x1x!tile, #ttcore.memory_space<l1>>
!cbt = !d2m.cb<memref<1x1x!tile, #ttcore.memory_space<l1>>>

// CHECK-LABEL: func.func @args
func.func @args(%a: !src, %out: !src, %s: !d2m.local_semaphore, %n: index) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]}
      ins(%a : !src) outs(%out : !src) additionalArgs(%s, %n : !d2m.local_semaphore, index) {
  ^datamovement0:
    // CHECK: d2m.generic
    // CHECK: %[[N:.*]] = d2m.get_arg(3) resolution_stage =  runtime : index
    // CHECK-NEXT: %[[S:.*]] = d2m.get_arg(2) resolution_stage =  runtime : !d2m.local_semaphore
    // CHECK-NEXT: %[[A:.*]] = d2m.get_arg(0) resolution_stage =  runtime : memref<2x2x1x1x
    // CHECK-NEXT: %[[CB:.*]] = d2m.get_cb(0) resolution_stage =  compile : <memref<1x1x
    %cb0 = d2m.get_cb(0) : !cbt
    %c0 = arith.constant 0 : index
    // CHECK: d2m.remote_load %[[A]][%{{.*}}, %{{.*}}] into %[[CB]]
    d2m.remote_load %a[%c0, %c0] into %cb0 : !src into !cbt
    // CHECK: d2m.semaphore_wait %[[S]], %[[N]]
    d2m.semaphore_wait %s, %n : !d2m.local_semaphore
  }, {
  ^compute0:
    // only what this region uses
    // CHECK: }, {
    // CHECK-NEXT: %[[N2:.*]] = d2m.get_arg(3) resolution_stage =  runtime : index
    // CHECK-NEXT: d2m.get_cb(1) resolution_stage =  compile
    // CHECK-NOT: d2m.get_arg
    // an explicit stage is kept
    // CHECK: d2m.get_arg(1) resolution_stage =  compile : memref<2x2x1x1x
    %cb1 = d2m.get_cb(1) : !cbt
    %o = d2m.get_arg(1) resolution_stage = compile : !src
    %m = arith.addi %n, %n : index
  }
  return
}

// -----

!blk = memref<1x1xf32, #ttcore.memory_space<l1>>

func.func @tensor_operand(%a: tensor<1x1xf32>, %out: !blk) {
  // expected-error @+1 {{'d2m.generic' op unsupported argument type in d2m.generic operands: tensor<1x1xf32>; only memref, semaphore, and scalar types are supported}}
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%a : tensor<1x1xf32>) outs(%out : !blk) {
  ^compute0:
  }
  return
}

// -----

!ix = memref<1x1x2x4xi32, #ttcore.memory_space<l1>>
!w = memref<1x1x8x16xf32, #ttcore.memory_space<l1>>

// an indexed row copy gets its operands right before it; its scratch buffers stay its own
// CHECK-LABEL: func.func @row_copy
func.func @row_copy(%idx: !ix, %weight: !w, %out: !w) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%idx, %weight : !ix, !w) outs(%out : !w) {
  ^datamovement0:
    // CHECK: %[[IS:.*]] = memref.alloc() : memref<1x1024xi32
    // CHECK-NEXT: %[[RS:.*]] = memref.alloc() : memref<1x1024xf32
    // CHECK-NEXT: %[[I:.*]] = d2m.get_arg(0) resolution_stage =  runtime : memref<1x1x2x4xi32
    // CHECK-NEXT: %[[W:.*]] = d2m.get_arg(1) resolution_stage =  runtime : memref<1x1x8x16xf32
    // CHECK-NEXT: %[[O:.*]] = d2m.get_arg(2) resolution_stage =  runtime : memref<1x1x8x16xf32
    // CHECK-NEXT: d2m.indexed_row_copy %[[I]], %[[W]], %[[O]] scratch %[[IS]], %[[RS]]<2, 16>
    %is = memref.alloc() : memref<1x1024xi32, #ttcore.memory_space<l1>>
    %rs = memref.alloc() : memref<1x1024xf32, #ttcore.memory_space<l1>>
    d2m.indexed_row_copy %idx, %weight, %out scratch %is, %rs<2, 16> {indicesShape = array<i64: 2, 4>} : !ix, !w, !w, memref<1x1024xi32, #ttcore.memory_space<l1>>, memref<1x1024xf32, #ttcore.memory_space<l1>>
  }
  return
}
