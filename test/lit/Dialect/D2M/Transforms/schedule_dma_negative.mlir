// RUN: not ttmlir-opt --ttcore-register-device --d2m-schedule-dma %s 2>&1 >/dev/null | FileCheck %s
// A data-movement region updating a semaphore is not copied into several threads (each copy would update it).

#l1 = #ttcore.memory_space<l1>
#dram = #ttcore.memory_space<dram>
!dbuf = memref<2x2x1x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #dram>
!cb = !d2m.cb<memref<1x2x!ttcore.tile<32x32, f32>, #l1>>
func.func @semaphore(%in: !dbuf, %out: !dbuf, %sem: !d2m.local_semaphore) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]}
      ins(%in : !dbuf)
      outs(%out : !dbuf)
      additionalArgs(%sem : !d2m.local_semaphore)  {
  ^datamovement0(%s: !d2m.local_semaphore):
    %cb0 = d2m.get_cb(0) : !cb
    %c1 = arith.constant 1 : index
    // CHECK: :[[# @LINE + 1]]:5: error: semaphore_set is not supported in regions that will be replicated across multiple threads
    d2m.semaphore_set %s, %c1 : !d2m.local_semaphore
    d2m.remote_load %in[%c1, %c1] into %cb0 : !dbuf into !cb
  }, {
  ^compute0(%s: !d2m.local_semaphore):
  }
  return
}
