// RUN: ttmlir-opt --ttcore-register-device --d2m-optimize-dma %s | FileCheck %s
// --d2m-optimize-dma: two reads issued before either barrier (each barrier keeping its push right after it), and
// the write barrier ending a loop body moved into the next iteration under iv != lb, its transfer carried from a
// null one and the last one waited for after the loop. The compute region is left alone.

#l1 = #ttcore.memory_space<l1>
!blk = memref<2x!ttcore.tile<32x32, f32>, #l1>
!buf = memref<2x2x1x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>

// CHECK-LABEL: func.func @optimize
// CHECK: %[[CB0:.*]] = d2m.get_cb(0)
// CHECK: %[[CB1:.*]] = d2m.get_cb(1)
// CHECK: %[[CB2:.*]] = d2m.get_cb(2)
// CHECK: d2m.reserve %[[CB0]]
// CHECK-NEXT: %[[T0:.*]] = d2m.dma_read
// CHECK-NEXT: d2m.reserve %[[CB1]]
// CHECK-NEXT: %[[T1:.*]] = d2m.dma_read
// CHECK-NEXT: d2m.dma_wait %[[T0]] : !d2m.mem_tx<read>
// CHECK-NEXT: d2m.push %[[CB0]]
// CHECK-NEXT: d2m.dma_wait %[[T1]] : !d2m.mem_tx<read>
// CHECK-NEXT: d2m.push %[[CB1]]
// CHECK: %[[NULL:.*]] = d2m.null_tx : !d2m.mem_tx<write>
// CHECK-NEXT: %[[LAST:.*]] = scf.for %[[I:.*]] = %[[LB:.*]] to %{{.*}} step %{{.*}} iter_args(%[[PREV:.*]] = %[[NULL]]) -> (!d2m.mem_tx<write>) {
// CHECK-NEXT: %[[NOT_FIRST:.*]] = arith.cmpi ne, %[[I]], %[[LB]] : index
// CHECK-NEXT: scf.if %[[NOT_FIRST]] {
// CHECK-NEXT: d2m.dma_wait %[[PREV]] : !d2m.mem_tx<write>
// CHECK-NEXT: d2m.pop %[[CB2]]
// CHECK: d2m.wait %[[CB2]]
// CHECK-NEXT: %[[TW:.*]] = d2m.dma_write
// CHECK-NEXT: scf.yield %[[TW]] : !d2m.mem_tx<write>
// CHECK: d2m.dma_wait %[[LAST]] : !d2m.mem_tx<write>
// CHECK-NEXT: d2m.pop %[[CB2]]
// CHECK: ^compute0:
func.func @optimize(%a: !buf, %b: !buf, %out: !buf) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]}
      ins(%a, %b : !buf, !buf)
      outs(%out : !buf)  {
  ^datamovement0:
    %cb0 = d2m.get_cb(0) : !d2m.cb<!blk>
    %cb1 = d2m.get_cb(1) : !d2m.cb<!blk>
    %cb2 = d2m.get_cb(2) : !d2m.cb<!blk>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %x = d2m.reserve %cb0 : !d2m.cb<!blk> -> !blk
    %t0 = d2m.dma_read %a[%c0, %c0], %x, <0> : (!buf, !blk) -> !d2m.mem_tx<read>
    d2m.dma_wait %t0 : !d2m.mem_tx<read>
    d2m.push %cb0 : !d2m.cb<!blk>
    %y = d2m.reserve %cb1 : !d2m.cb<!blk> -> !blk
    %t1 = d2m.dma_read %b[%c0, %c0], %y, <0> : (!buf, !blk) -> !d2m.mem_tx<read>
    d2m.dma_wait %t1 : !d2m.mem_tx<read>
    d2m.push %cb1 : !d2m.cb<!blk>
    scf.for %i = %c0 to %c4 step %c1 {
      %z = d2m.wait %cb2 : !d2m.cb<!blk> -> !blk
      %tw = d2m.dma_write %z, %out[%c0, %i], <0> : (!blk, !buf) -> !d2m.mem_tx<write>
      d2m.dma_wait %tw : !d2m.mem_tx<write>
      d2m.pop %cb2 : !d2m.cb<!blk>
    }
  }, {
  ^compute0:
  }
  return
}
