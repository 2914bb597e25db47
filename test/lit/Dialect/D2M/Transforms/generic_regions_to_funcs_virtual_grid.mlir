// RUN: ttmlir-opt --ttcore-register-device --d2m-normalize-thread-args --d2m-generic-regions-to-funcs %s | FileCheck %s
// On a virtual grid the kernels' core_index ops return virtual coordinates (through the grid's physical-to-virtual
// map), and the cores a multicast write or a remote semaphore update names are mapped to physical ones; a grid
// without maps leaves them as they are.

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
!blk = memref<1x1x!tile, #ttcore.memory_space<l1>>
!dram = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<dram>>
#virtual = #ttcore.grid<2x2, virt_to_physical_map = (d0, d1) -> (0, d1 + 2, d0 + 3), physical_to_virt_map = (d0, d1) -> (0, d1 - 3, d0 - 2)>

// CHECK: #[[Y:.*]] = affine_map<(d0, d1) -> (d1 + 2)>
// CHECK: #[[X:.*]] = affine_map<(d0, d1) -> (d0 + 3)>
// CHECK-LABEL: func.func @virtual
func.func @virtual(%a: !src, %out: !dram, %s: !d2m.local_semaphore, %buf: !blk) {
  d2m.generic {block_factors = [], grid = #virtual, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%a : !src) outs(%out : !dram) additionalArgs(%s, %buf : !d2m.local_semaphore, !blk) {
  ^datamovement0:
    %c1 = arith.constant 1 : index
    %core = d2m.core_index(0) : index
    %t = d2m.dma_write %buf, %buf core[%core, %c1] mcast[%c1, %c1], <0> : (!blk, !blk) -> !d2m.mem_tx<mcast_write>
    d2m.semaphore_inc %s, %c1, core[%c1, %core] : !d2m.local_semaphore
    d2m.semaphore_set %s, %c1 : !d2m.local_semaphore
  }
  return
}

// CHECK-LABEL: func.func @flat
// CHECK-LABEL: func.func private @datamovement_kernel0
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[CORE:.*]] = d2m.core_index(0) {phys_to_virt_map = #{{.*}}} : index
// CHECK: %[[PY:.*]] = affine.apply #[[Y]](%[[CORE]], %[[C1]])
// CHECK: %[[PX:.*]] = affine.apply #[[X]](%[[CORE]], %[[C1]])
// CHECK: d2m.dma_write %{{.*}}, %{{.*}} core[%[[PY]], %[[PX]]] mcast[%[[C1]], %[[C1]]]
// CHECK: %[[QY:.*]] = affine.apply #[[Y]](%[[C1]], %[[CORE]])
// CHECK: %[[QX:.*]] = affine.apply #[[X]](%[[C1]], %[[CORE]])
// CHECK: d2m.semaphore_inc %{{.*}}, %[[C1]], core[%[[QY]], %[[QX]]]
// a local update names no core
// CHECK-NEXT: d2m.semaphore_set %{{.*}}, %[[C1]] :
// CHECK-LABEL: func.func private @datamovement_kernel1
// CHECK: d2m.core_index(0) : index
// CHECK-NOT: affine.apply
// CHECK: d2m.dma_write %{{.*}}, %{{.*}} core[%{{.*}}, %{{.*}}]
func.func @flat(%a: !src, %out: !src, %buf: !blk) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
      ins(%a : !src) outs(%out : !src) additionalArgs(%buf : !blk) {
  ^datamovement0:
    %c1 = arith.constant 1 : index
    %core = d2m.core_index(0) : index
    %t = d2m.dma_write %buf, %buf core[%core, %c1] mcast[%c1, %c1], <0> : (!blk, !blk) -> !d2m.mem_tx<mcast_write>
  }
  return
}
