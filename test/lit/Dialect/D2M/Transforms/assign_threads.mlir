// RUN: ttmlir-opt --split-input-file --verify-diagnostics --d2m-assign-threads %s | FileCheck %s
// In a unified generic, loads/stores/copies of the generic's circular buffers take explicit-CB form (a get_cb per
// buffer operand, reused when the region has one) and every data-movement or compute op is tagged with its thread;
// a load of a buffer aliased in place keeps its form; other generics are left alone.

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
!cbm = memref<1x1x!tile, #ttcore.cb_layout<2048x2048, 2>, #ttcore.memory_space<l1>>
!blk = memref<1x1x!tile, #ttcore.memory_space<l1>>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @unified
func.func @unified(%a: !src, %out: !src, %in_cb: !cbm, %mid_cb: !cbm, %out_cb: !cbm) {
  // CHECK: threads = [#d2m.thread<unified>]
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !src) outs(%out : !src) additionalArgs(%in_cb, %mid_cb, %out_cb : !cbm, !cbm, !cbm) {
  ^unified0:
    // CHECK: %[[MID:.*]] = d2m.get_cb(3) resolution_stage =  compile : <memref<1x1x{{.*}}, #ttcore.cb_layout<2048x2048, 2>, #l1>>
    // CHECK-NEXT: %[[IN:.*]] = d2m.get_cb(2)
    // CHECK-NEXT: %[[C:.*]] = d2m.core_index(0) : index
    // CHECK-NEXT: %[[OUT:.*]] = d2m.get_cb(4) : <memref<1x1x
    %c = d2m.core_index(0) : index
    %out_handle = d2m.get_cb(4) : !d2m.cb<!cbm>
    // CHECK-NEXT: d2m.remote_load %{{.*}}[%[[C]], %[[C]]] into %[[IN]] {d2m.thread = #d2m.thread<datamovement>}
    d2m.remote_load %in_cb %a[%c, %c] : !cbm, !src
    // CHECK-NEXT: d2m.local_copy from %[[IN]] into %[[MID]] indexing_maps = [{{.*}}] {d2m.thread = #d2m.thread<datamovement>}
    d2m.local_copy %in_cb, %mid_cb indexing_maps = [#id, #id] : !cbm, !cbm
    // CHECK-NEXT: linalg.generic {{.*}} attrs =  {d2m.thread = #d2m.thread<compute>}
    // CHECK: "d2m.tile_exp"(%{{.*}}) {d2m.thread = #d2m.thread<compute>}
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mid_cb : !cbm) outs(%out_cb : !cbm) {
    ^bb0(%x: !tile, %y: !tile):
      %e = "d2m.tile_exp"(%x) : (!tile) -> !tile
      linalg.yield %e : !tile
    }
    // a wait every thread makes stays untagged
    // CHECK: d2m.semaphore_wait %{{.*}}, %{{.*}} : !d2m.local_semaphore
    %s = d2m.create_local_semaphore <{initialValue = 0 : ui32}> -> !d2m.local_semaphore
    d2m.semaphore_wait %s, %c : !d2m.local_semaphore
    // CHECK: d2m.remote_store %{{.*}}[%[[C]], %[[C]]] from %[[OUT]] {d2m.thread = #d2m.thread<datamovement>}
    d2m.remote_store %out[%c, %c] %out_cb : !src, !cbm
  }
  return
}

// CHECK-LABEL: func.func @aliased
func.func @aliased(%a: !src, %out: !src) {
  %al = d2m.operand_alias %a : !src -> !blk
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !src) outs(%out : !src) additionalArgs(%al : !blk) {
  ^unified0:
    %c = d2m.core_index(0) : index
    // CHECK-NOT: d2m.get_cb
    // CHECK: d2m.remote_load %{{.*}} %{{.*}}[%{{.*}}, %{{.*}}] {d2m.thread = #d2m.thread<datamovement>} : memref<1x1x
    d2m.remote_load %al %a[%c, %c] : !blk, !src
  }
  return
}

// CHECK-LABEL: func.func @split_already
func.func @split_already(%a: !src, %out: !src, %in_cb: !cbm) {
  // CHECK-NOT: d2m.thread = #d2m.thread
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%a : !src) outs(%out : !src) additionalArgs(%in_cb : !cbm) {
  ^datamovement0:
    %c = d2m.core_index(0) : index
    d2m.remote_load %in_cb %a[%c, %c] : !cbm, !src
  }
  return
}

// -----

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
!blk = memref<1x1x!tile, #ttcore.memory_space<l1>>

func.func @not_an_operand(%a: !src, %out: !src) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !src) outs(%out : !src) {
  ^unified0:
    %c = d2m.core_index(0) : index
    %buf = memref.alloc() : !blk
    // expected-error @+1 {{'d2m.remote_load' op its local buffer must be an operand of the enclosing d2m.generic (an additional argument) to become a circular buffer}}
    d2m.remote_load %buf %a[%c, %c] : !blk, !src
  }
  return
}
