// RUN: ttmlir-opt --ttcore-register-device --d2m-schedule-dma --split-input-file %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --d2m-schedule-dma=num-dm-cores=6 --split-input-file %s | FileCheck %s --check-prefix=SIX
// RUN: not ttmlir-opt --ttcore-register-device --d2m-schedule-dma=num-dm-cores=3 --split-input-file %s 2>&1 | FileCheck %s --check-prefix=BAD
// --d2m-schedule-dma: a data-movement region's DMA spread over the DM cores by CB port, each thread a copy of the
// region keeping its ports' DMA. Two cores: the thread reading DRAM drives NoC 0 (dm_core 1), the one writing it
// NoC 1. One port: one thread, on dm_core 0 when it writes DRAM.

#l1 = #ttcore.memory_space<l1>
#dram = #ttcore.memory_space<dram>
!dbuf = memref<2x2x1x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #dram>
!lbuf = memref<2x2x1x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
!cb = !d2m.cb<memref<1x2x!ttcore.tile<32x32, f32>, #l1>>

// CHECK-LABEL: func.func @read_and_write
// CHECK: threads = [#d2m.thread<datamovement, dm_core = 1>, #d2m.thread<datamovement, dm_core = 0>, #d2m.thread<compute>]
// CHECK-NOT: d2m.remote_store
// CHECK: d2m.remote_load %arg0
// CHECK-NOT: d2m.remote_store
// CHECK: }, {
// CHECK-NOT: d2m.remote_load
// CHECK: d2m.remote_store %arg1
// CHECK: }, {
// CHECK-NOT: d2m.remote
// SIX-LABEL: func.func @read_and_write
// SIX: threads = [#d2m.thread<datamovement, dm_core = 0>, #d2m.thread<datamovement, dm_core = 1>, #d2m.thread<compute>]
// BAD: error: d2m-schedule-dma only supports 2 or 6 DM cores
func.func @read_and_write(%in: !dbuf, %out: !dbuf) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]}
      ins(%in : !dbuf)
      outs(%out : !dbuf)  {
  ^datamovement0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %y = d2m.core_index(0) : index
    %x = d2m.core_index(1) : index
    d2m.remote_store %out[%y, %x] from %cb1 : !dbuf from !cb
    d2m.remote_load %in[%y, %x] into %cb0 : !dbuf into !cb
  }, {
  ^compute0:
  }
  return
}

// -----

#l1 = #ttcore.memory_space<l1>
#dram = #ttcore.memory_space<dram>
!dbuf = memref<2x2x1x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #dram>
!cb = !d2m.cb<memref<1x2x!ttcore.tile<32x32, f32>, #l1>>

// CHECK-LABEL: func.func @one_port
// CHECK: threads = [#d2m.thread<datamovement, dm_core = 0>, #d2m.thread<compute>]
// SIX-LABEL: func.func @one_port
// SIX: threads = [#d2m.thread<datamovement, dm_core = 0>, #d2m.thread<compute>]
func.func @one_port(%in: !dbuf, %out: !dbuf) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]}
      ins(%in : !dbuf)
      outs(%out : !dbuf)  {
  ^datamovement0:
    %cb1 = d2m.get_cb(1) : !cb
    %y = d2m.core_index(0) : index
    d2m.remote_store %out[%y, %y] from %cb1 : !dbuf from !cb
  }, {
  ^compute0:
  }
  return
}
