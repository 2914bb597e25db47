// RUN: ttmlir-opt --split-input-file --verify-diagnostics --d2m-split-unified-thread %s | FileCheck %s
// RUN: ttmlir-opt --split-input-file --verify-diagnostics --d2m-assign-threads --d2m-split-threads %s | FileCheck %s --check-prefix=SPLIT
// A unified generic splits into a data-movement region (its transfers, in explicit-CB form) and a compute region
// (its compute) with one wait/pop or reserve/push per CB around the compute using it, at the depth of the CB's
// transfer; a load aliased in place moves nothing, so compute hands its block over itself. Semaphore updates every
// thread would repeat are refused.

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
!cbm = memref<1x1x!tile, #ttcore.cb_layout<2048x2048, 2>, #ttcore.memory_space<l1>>
!blk = memref<1x1x!tile, #ttcore.memory_space<l1>>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @stream
// SPLIT-LABEL: func.func @stream
func.func @stream(%a: !src, %out: !src, %in_cb: !cbm, %out_cb: !cbm) {
  // CHECK: threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]
  // SPLIT: threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !src) outs(%out : !src) additionalArgs(%in_cb, %out_cb : !cbm, !cbm) {
  ^unified0:
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // data movement: the transfers in the loop, no compute
    // CHECK: scf.for
    // CHECK: d2m.remote_load %{{.*}} into %{{.*}} :
    // CHECK-NOT: linalg.generic
    // CHECK: d2m.remote_store %{{.*}} from %{{.*}} :
    // compute: the CB protocol in the loop the transfers are in, no transfers
    // CHECK: }, {
    // CHECK: %[[OUT:.*]] = d2m.get_cb(3)
    // CHECK: %[[IN:.*]] = d2m.get_cb(2)
    // CHECK: scf.for
    // CHECK-NEXT: %[[X:.*]] = d2m.wait %[[IN]]
    // CHECK-NEXT: %[[Y:.*]] = d2m.reserve %[[OUT]]
    // CHECK-NEXT: linalg.generic {{.*}} ins(%[[X]] : {{.*}}) outs(%[[Y]] : {{.*}})
    // CHECK: d2m.push %[[OUT]]
    // CHECK-NEXT: d2m.pop %[[IN]]
    // CHECK-NOT: d2m.remote_
    // SPLIT: }, {
    // SPLIT-NOT: d2m.wait
    // SPLIT-NOT: d2m.thread = #d2m.thread
    // SPLIT: linalg.generic
    // SPLIT-NOT: d2m.remote_
    scf.for %i = %c0 to %c1 step %c1 {
      %y = d2m.core_index(0) : index
      d2m.remote_load %in_cb %a[%y, %i] : !cbm, !src
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%in_cb : !cbm) outs(%out_cb : !cbm) {
      ^bb0(%x: !tile, %o: !tile):
        %e = "d2m.tile_exp"(%x) : (!tile) -> !tile
        linalg.yield %e : !tile
      }
      d2m.remote_store %out[%y, %i] %out_cb : !src, !cbm
    } {d2m.blocking_loop = 0}
  }
  return
}

// CHECK-LABEL: func.func @aliased_input
// SPLIT-LABEL: func.func @aliased_input
func.func @aliased_input(%a: !src, %out: !src, %out_cb: !cbm) {
  %al = d2m.operand_alias %a : !src -> !blk
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !src) outs(%out : !src) additionalArgs(%al, %out_cb : !blk, !cbm) {
  ^unified0:
    %c0 = arith.constant 0 : index
    // the aliased marker is gone from data movement
    // CHECK-NOT: d2m.remote_load
    // CHECK: d2m.remote_store
    // CHECK: }, {
    // CHECK: %[[AL:.*]] = d2m.get_cb(2)
    // CHECK: d2m.reserve %[[AL]]
    // CHECK-NEXT: d2m.push %[[AL]]
    // CHECK-NEXT: %[[X:.*]] = d2m.wait %[[AL]]
    d2m.remote_load %al %a[%c0, %c0] : !blk, !src
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%al : !blk) outs(%out_cb : !cbm) {
    ^bb0(%x: !tile, %o: !tile):
      %e = "d2m.tile_exp"(%x) : (!tile) -> !tile
      linalg.yield %e : !tile
    }
    d2m.remote_store %out[%c0, %c0] %out_cb : !src, !cbm
  }
  return
}

// -----

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>

func.func @replicated_set(%a: !src, %out: !src, %s: !d2m.local_semaphore) {
  // expected-error @+1 {{'d2m.generic' op failed to split unified thread}}
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%a : !src) outs(%out : !src) additionalArgs(%s : !d2m.local_semaphore) {
  ^unified0:
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{semaphore_set is not supported in regions that will be replicated across multiple threads}}
    d2m.semaphore_set %s, %c1 : !d2m.local_semaphore
  }
  return
}
