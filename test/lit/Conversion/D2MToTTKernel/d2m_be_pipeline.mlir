// RUN: ttmlir-opt --ttcore-register-device --d2m-be-pipeline %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --d2m-be-pipeline --convert-d2m-to-ttkernel %s | FileCheck %s --check-prefix=KERNEL
// The D2M backend: an allocated explicit-form program (its local buffers synchronized, with L1 addresses) becomes
// kernel functions of D2M ops: a data-movement thread per remote load/store (fully indexed DMA through CBs) and
// the compute thread's tile op on DST; convert-d2m-to-ttkernel then lowers them.

#l1 = #ttcore.memory_space<l1>
#map = affine_map<(d0, d1) -> (d0, d1)>
!shard = memref<1x1x1x1x!ttcore.tile<32x32, bf16>, #ttcore.shard<2048x2048, 1>, #l1>
!block = memref<1x1x!ttcore.tile<32x32, bf16>>

// CHECK-LABEL: func.func @exp
// CHECK: d2m.generic {{.*}}threads = [#d2m.thread<datamovement, @datamovement_kernel0, dm_core = 1>, #d2m.thread<datamovement, @datamovement_kernel1, dm_core = 0>, #d2m.thread<compute, @compute_kernel2>]
// CHECK-LABEL: func.func private @datamovement_kernel0()
// CHECK: d2m.reserve
// CHECK: %tx = d2m.dma_read %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], <1>
// CHECK: d2m.dma_wait %tx
// CHECK: d2m.push
// CHECK-LABEL: func.func private @datamovement_kernel1()
// CHECK: d2m.wait
// CHECK: d2m.dma_write %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], <1>
// CHECK: d2m.pop
// CHECK-LABEL: func.func private @compute_kernel2()
// CHECK: d2m.acquire_dst
// CHECK: "d2m.tile_exp"
// KERNEL-LABEL: func.func private @datamovement_kernel0()
// KERNEL: ttkernel.noc_async_read core[
// the write goes to the output buffer's address (a runtime arg) plus the block's offset
// KERNEL-LABEL: func.func private @datamovement_kernel1()
// KERNEL: %[[BASE:.*]] = ttkernel.get_common_arg_val(%{{.*}}) : (index) -> i32
// KERNEL: %[[FAR:.*]] = arith.addi %[[BASE]], %{{.*}} : i32
// KERNEL: ttkernel.noc_async_write %{{.*}}, core[%{{.*}}, %{{.*}}], %[[FAR]],
// KERNEL-LABEL: func.func private @compute_kernel2()
// KERNEL: ttkernel.exp_tile_init()
// KERNEL: ttkernel.exp_tile(
// KERNEL: ttkernel.pack_tile(
func.func @exp(%in: !shard, %out: !shard) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%in : !shard)
      outs(%out : !shard) {
    %core0 = d2m.core_index(0) : index
    %core1 = d2m.core_index(1) : index
    %a = memref.alloc() {address = 200000 : i64, alignment = 64 : i64, d2m.synchronized_buffer = 2 : i32} : !block
    d2m.remote_load %a %in[%core0, %core1] : !block, !shard
    %b = memref.alloc() {address = 208192 : i64, alignment = 64 : i64, d2m.synchronized_buffer = 2 : i32} : !block
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : !block) outs(%b : !block) {
    ^bb0(%x: !ttcore.tile<32x32, bf16>, %y: !ttcore.tile<32x32, bf16>):
      %e = "d2m.tile_exp"(%x) : (!ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
      linalg.yield %e : !ttcore.tile<32x32, bf16>
    }
    d2m.remote_store %out[%core0, %core1] %b : !shard, !block
  }
  return
}
