// RUN: ttmlir-opt --d2m-preallocate-mcast-semaphores %s | FileCheck %s
// RUN: ttmlir-opt --d2m-preallocate-mcast-semaphores --d2m-preallocate-mcast-semaphores %s | FileCheck %s --check-prefix=TWICE
// Each multicast load (mcore/mshape), also inside scf.for nests, gets two fresh local semaphores appended to the
// generic's additionalArgs, numbered after the operands already there; loads without multicast get none, and a
// second run adds nothing.

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
!cbt = !d2m.cb<memref<1x1x!tile, #ttcore.memory_space<l1>>>

// CHECK-LABEL: func.func @loads
// CHECK: %[[A:.*]] = d2m.create_local_semaphore <{initialValue = 0 : ui32}> -> !d2m.local_semaphore
// CHECK: %[[B:.*]] = d2m.create_local_semaphore <{initialValue = 0 : ui32}> -> !d2m.local_semaphore
// CHECK: %[[C:.*]] = d2m.create_local_semaphore <{initialValue = 0 : ui32}> -> !d2m.local_semaphore
// CHECK: %[[D:.*]] = d2m.create_local_semaphore <{initialValue = 0 : ui32}> -> !d2m.local_semaphore
// CHECK: d2m.generic
// CHECK: additionalArgs(%{{.*}}, %[[A]], %[[B]], %[[C]], %[[D]] : !d2m.local_semaphore, !d2m.local_semaphore, !d2m.local_semaphore, !d2m.local_semaphore, !d2m.local_semaphore)
// CHECK: d2m.remote_load %{{.*}} into %{{.*}} mcore[{{.*}}] mshape[{{.*}}] {preallocated_semaphores = [4, 5]}
// CHECK: d2m.remote_load %{{.*}} into %{{.*}} : {{.*}}
// CHECK: d2m.remote_load %{{.*}} into %{{.*}} mcore[{{.*}}] mshape[{{.*}}] {preallocated_semaphores = [6, 7]}
// TWICE-COUNT-4: d2m.create_local_semaphore
// TWICE-NOT: d2m.create_local_semaphore
func.func @loads(%a: !src, %b: !src, %out: !src, %s: !d2m.local_semaphore) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%a, %b : !src, !src) outs(%out : !src) additionalArgs(%s : !d2m.local_semaphore) {
  ^datamovement0:
    %cb0 = d2m.get_cb(0) : !cbt
    %cb1 = d2m.get_cb(1) : !cbt
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    d2m.remote_load %a[%c0, %c0] into %cb0 mcore[%c0, %c0] mshape[%c1, %c2] : !src into !cbt
    scf.for %i = %c0 to %c2 step %c1 {
      d2m.remote_load %b[%i, %c0] into %cb1 : !src into !cbt
      d2m.remote_load %b[%i, %c1] into %cb1 mcore[%c0, %c0] mshape[%c2, %c1] : !src into !cbt
    }
  }
  return
}
