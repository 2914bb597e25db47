// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// Fully indexed DMA in a data-movement kernel: a read of a remote L1 shard [grid y, grid x, offset] from that
// core's translated coordinates into the reserved block's write pointer, a DRAM read by bank, a write of a
// waited-for block to a rectangle of cores (loopback: this core too), each wait at its NoC's barrier (none for a
// multicast), and this core's index.

#l1 = #ttcore.memory_space<l1>
#dram = #ttcore.memory_space<dram>
!blk = memref<2x!ttcore.tile<32x32, bf16>, #l1>
!shard = memref<2x2x1x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<4096x2048, 1>, #l1>
!dbuf = memref<1x12x1x2x!ttcore.tile<32x32, bf16>, #ttcore.interleaved<4096x2048>, #dram>

// CHECK-LABEL: func.func private @reader
// CHECK: %[[BASE:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> i32
// CHECK: %[[Y:.*]] = ttkernel.my_logical_y_ : () -> index
// CHECK: %[[WP:.*]] = ttkernel.get_write_ptr(%[[CB:.*]]) :
// CHECK: %[[DST:.*]] = arith.addi %[[WP]], %{{.*}} : i32
// CHECK: %[[SIZE:.*]] = arith.constant 4096 : i32
// CHECK: %[[NOC:.*]] = arith.constant 0 : i8
// CHECK: %[[OFF:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[SRC:.*]] = arith.addi %[[BASE]], %[[OFF]] : i32
// CHECK: %[[TY:.*]] = ttkernel.experimental.convert_logical_y_to_translated(%[[Y]])
// CHECK: %[[TX:.*]] = ttkernel.experimental.convert_logical_x_to_translated(
// CHECK: ttkernel.noc_async_read core[%[[TX]], %[[TY]]], %[[SRC]], %[[DST]], %[[SIZE]], noc %[[NOC]]
// CHECK: ttkernel.noc_async_read_barrier(
// CHECK: %[[BANK:.*]] = arith.index_cast %c2{{(_[0-9]+)?}} : index to i32
// CHECK: ttkernel.noc_async_read bank[%[[BANK]]],
// CHECK: %[[RP:.*]] = ttkernel.get_read_ptr
// CHECK: ttkernel.noc_async_write_multicast_loopback_src(%[[RP]], %{{.*}}, %{{.*}}, start_xy[%{{.*}}, %{{.*}}], end_xy[%{{.*}}, %{{.*}}], %{{.*}}, noc %{{.*}}, linked true)
// CHECK-NOT: ttkernel.noc_async_write_barrier
// CHECK: return
func.func private @reader() attributes {d2m.thread = #d2m.thread<datamovement, dm_core = 1>} {
  %cb = d2m.get_cb(0) : !d2m.cb<!blk>
  %cb1 = d2m.get_cb(1) : !d2m.cb<!blk>
  %buf = d2m.get_arg(2) : !shard
  %dbuf = d2m.get_arg(3) : !dbuf
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %y = d2m.core_index(0) : index
  %blk = d2m.reserve %cb : !d2m.cb<!blk> -> !blk
  %tx = d2m.dma_read %buf[%y, %c1, %c0], %blk[%c0], <2> : (!shard, !blk) -> !d2m.mem_tx<read>
  d2m.dma_wait %tx : !d2m.mem_tx<read>
  %tx1 = d2m.dma_read %dbuf[%c0, %c2, %c0], %blk[%c0], <2> : (!dbuf, !blk) -> !d2m.mem_tx<read>
  d2m.dma_wait %tx1 : !d2m.mem_tx<read>
  d2m.push %cb : !d2m.cb<!blk>
  %in = d2m.wait %cb : !d2m.cb<!blk> -> !blk
  %out = d2m.reserve %cb1 : !d2m.cb<!blk> -> !blk
  %tx2 = d2m.dma_write %in[%c0], %out[%c0] core[%c0, %c0] mcast[%c1, %c2], <2> : (!blk, !blk) -> !d2m.mem_tx<mcast_write>
  d2m.dma_wait %tx2 : !d2m.mem_tx<mcast_write>
  return
}

// A null transfer (a loop's first carried write) is a null handle; waiting for it is the write barrier.
// CHECK-LABEL: func.func private @null_transfer
// CHECK: %[[NULL:.*]] = arith.constant 0 : index
// CHECK-NEXT: scf.for {{.*}} iter_args(%{{.*}} = %[[NULL]]) -> (index)
// CHECK-NEXT: scf.yield %{{.*}} : index
// CHECK: ttkernel.noc_async_write_barrier
func.func private @null_transfer() attributes {d2m.thread = #d2m.thread<datamovement>} {
  %c1 = arith.constant 1 : index
  %null = d2m.null_tx : !d2m.mem_tx<write>
  %last = scf.for %i = %c1 to %c1 step %c1 iter_args(%prev = %null) -> (!d2m.mem_tx<write>) {
    scf.yield %prev : !d2m.mem_tx<write>
  }
  d2m.dma_wait %last : !d2m.mem_tx<write>
  return
}
