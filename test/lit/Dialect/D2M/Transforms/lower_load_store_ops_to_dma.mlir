// RUN: ttmlir-opt --split-input-file --verify-diagnostics --d2m-preallocate-mcast-semaphores --d2m-lower-load-store-ops-to-dma %s | FileCheck %s
// Loads, stores and local copies between circular buffers become shard-level DMA under the CB protocol; a
// multicast load becomes the sender/receiver handshake over its two preallocated semaphores.

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
!cbt = !d2m.cb<memref<1x1x!tile, #ttcore.memory_space<l1>>>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @unicast
func.func @unicast(%a: !src, %out: !src) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%a : !src) outs(%out : !src) {
  ^datamovement0:
    // CHECK: %[[CB0:.*]] = d2m.get_cb(0)
    // an unused CB handle is dropped, as a greedy rewrite drops dead pure ops
    // CHECK-NOT: d2m.get_cb(1)
    // CHECK: %[[CB2:.*]] = d2m.get_cb(2)
    %cb0 = d2m.get_cb(0) : !cbt
    %cb1 = d2m.get_cb(1) : !cbt
    %cb2 = d2m.get_cb(2) : !cbt
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // CHECK: %[[IN:.*]] = d2m.reserve %[[CB0]]
    // CHECK-NEXT: %[[RD:.*]] = d2m.dma_read %{{.*}}[%{{.*}}, %{{.*}}], %[[IN]], <0>
    // CHECK-NEXT: d2m.dma_wait %[[RD]] : !d2m.mem_tx<read>
    // CHECK-NEXT: d2m.push %[[CB0]]
    d2m.remote_load %a[%c0, %c1] into %cb0 : !src into !cbt
    // CHECK-NEXT: %[[FROM:.*]] = d2m.wait %[[CB0]]
    // CHECK-NEXT: %[[TO:.*]] = d2m.reserve %[[CB2]]
    // CHECK-NEXT: %[[CP:.*]] = d2m.local_copy %[[FROM]], %[[TO]] indexing_maps = [{{.*}}] : {{.*}} -> !d2m.mem_tx<read>
    // CHECK-NEXT: d2m.dma_wait %[[CP]]
    // CHECK-NEXT: d2m.push %[[CB2]]
    // CHECK-NEXT: d2m.pop %[[CB0]]
    d2m.local_copy from %cb0 into %cb2 indexing_maps = [#id, #id] : !cbt, !cbt
    // CHECK-NEXT: %[[OUT:.*]] = d2m.wait %[[CB2]]
    // CHECK-NEXT: %[[WR:.*]] = d2m.dma_write %[[OUT]], %{{.*}}[%{{.*}}, %{{.*}}], <0> : {{.*}} -> !d2m.mem_tx<write>
    // CHECK-NEXT: d2m.dma_wait %[[WR]] : !d2m.mem_tx<write>
    // CHECK-NEXT: d2m.pop %[[CB2]]
    d2m.remote_store %out[%c1, %c0] from %cb2 : !src from !cbt
  }
  return
}

// -----

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
!cbt = !d2m.cb<memref<1x1x!tile, #ttcore.memory_space<l1>>>

// CHECK-LABEL: func.func @multicast
// CHECK: %[[READY:.*]] = d2m.create_local_semaphore
// CHECK: %[[DONE:.*]] = d2m.create_local_semaphore
func.func @multicast(%a: !src, %out: !src) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%a : !src) outs(%out : !src) {
  ^datamovement0:
    %cb0 = d2m.get_cb(0) : !cbt
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // CHECK: %[[ZERO:.*]] = arith.constant 0 : index
    // CHECK: %[[ONE:.*]] = arith.constant 1 : index
    // CHECK: %[[VOL:.*]] = arith.muli %{{.*}}, %{{.*}} : index
    // CHECK: %[[RECV:.*]] = arith.subi %[[VOL]], %[[ONE]] : index
    // CHECK: %[[Y:.*]] = d2m.core_index(0)
    // CHECK: %[[ISY:.*]] = arith.cmpi eq, %[[Y]], %{{.*}}
    // CHECK: %[[X:.*]] = d2m.core_index(1)
    // CHECK: %[[ISX:.*]] = arith.cmpi eq, %[[X]], %{{.*}}
    // CHECK: %[[SENDER:.*]] = arith.andi %[[ISY]], %[[ISX]]
    // CHECK: %[[BLK:.*]] = d2m.reserve
    // CHECK: scf.if %[[SENDER]] {
    // CHECK-NEXT: %[[RD:.*]] = d2m.dma_read %{{.*}}, %[[BLK]], <0>
    // CHECK-NEXT: d2m.dma_wait %[[RD]]
    // CHECK-NEXT: d2m.semaphore_wait %[[READY]], %[[RECV]] reset %[[ZERO]]
    // CHECK-NEXT: %[[MC:.*]] = d2m.dma_write %[[BLK]], %[[BLK]] core[%{{.*}}, %{{.*}}] mcast[%{{.*}}, %{{.*}}], <0> {{.*}} -> !d2m.mem_tx<mcast_write>
    // CHECK-NEXT: d2m.dma_wait %[[MC]]
    // CHECK-NEXT: d2m.semaphore_set %[[DONE]], %[[ONE]], core[%{{.*}}, %{{.*}}] mcast[%{{.*}}, %{{.*}}]
    // CHECK-NEXT: } else {
    // CHECK-NEXT: d2m.semaphore_inc %[[READY]], %[[ONE]], core[%{{.*}}, %{{.*}}] :
    // CHECK-NEXT: d2m.semaphore_wait %[[DONE]], %[[ONE]] reset %[[ZERO]]
    // CHECK-NEXT: }
    // CHECK-NEXT: d2m.push
    d2m.remote_load %a[%c0, %c0] into %cb0 mcore[%c0, %c0] mshape[%c2, %c2] : !src into !cbt
  }
  return
}

// -----

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
!cbt = !d2m.cb<memref<1x1x!tile, #ttcore.memory_space<l1>>>

func.func @grid_dims_multicast(%a: !src, %out: !src) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%a : !src) outs(%out : !src) {
  ^datamovement0:
    %cb0 = d2m.get_cb(0) : !cbt
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'d2m.remote_load' op multicast along grid dims (mcast[...]) must be lowered to mcore[...] mshape[...] first (--d2m-lower-multicast-loads)}}
    d2m.remote_load %a[%c0, %c0] into %cb0 mcast[%c1] : !src into !cbt
  }
  return
}
