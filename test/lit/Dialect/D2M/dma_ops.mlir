// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// Shard-level DMA, semaphore and local-copy ops read and print in upstream's syntax.

!tile = !ttcore.tile<32x32, bf16>
!src = memref<2x2x1x1x!tile, #ttcore.shard<2048x2048, 1>, #ttcore.memory_space<l1>>
!blk = memref<1x1x!tile, #ttcore.memory_space<l1>>
!cbt = !d2m.cb<memref<1x1x!tile, #ttcore.memory_space<l1>>>

// CHECK-LABEL: func.func @dma
func.func @dma(%src: !src, %buf: !blk, %s: !d2m.local_semaphore, %g: !d2m.global_semaphore, %cb0: !cbt, %cb1: !cbt) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: %[[R:.*]] = d2m.dma_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, <0> : (memref<2x2x1x1x{{.*}}>, memref<1x1x{{.*}}>) -> !d2m.mem_tx<read>
  %r = d2m.dma_read %src[%c0, %c1], %buf, <0> : (!src, !blk) -> !d2m.mem_tx<read>
  // CHECK: d2m.dma_wait %[[R]] : !d2m.mem_tx<read>
  d2m.dma_wait %r : !d2m.mem_tx<read>
  // CHECK: d2m.dma_read %{{.*}}[], %{{.*}}[%{{.*}}], <2> :
  %p = d2m.dma_read %src[], %buf[%c0], <2> : (!src, !blk) -> !d2m.mem_tx<read>
  // CHECK: d2m.dma_write %{{.*}}, %{{.*}} core[%{{.*}}, %{{.*}}] mcast[%{{.*}}, %{{.*}}], <0> : ({{.*}}) -> !d2m.mem_tx<mcast_write>
  %m = d2m.dma_write %buf, %buf core[%c0, %c0] mcast[%c1, %c1], <0> : (!blk, !blk) -> !d2m.mem_tx<mcast_write>
  // CHECK: d2m.dma_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}], <4> {tensorAccessorPageMap = #map{{[0-9]*}}} : ({{.*}}) -> !d2m.mem_tx<write>
  %w = d2m.dma_write %buf, %src[%c0, %c1], <4> {tensorAccessorPageMap = affine_map<(d0) -> (d0)>} : (!blk, !src) -> !d2m.mem_tx<write>
  // CHECK: d2m.semaphore_set %{{.*}}, %{{.*}}, core[%{{.*}}, %{{.*}}] mcast[%{{.*}}, %{{.*}}] : !d2m.local_semaphore
  d2m.semaphore_set %s, %c1, core[%c0, %c0] mcast[%c1, %c1] : !d2m.local_semaphore
  // CHECK: d2m.semaphore_inc %{{.*}}, %{{.*}} : !d2m.global_semaphore
  d2m.semaphore_inc %g, %c1 : !d2m.global_semaphore
  // CHECK: d2m.semaphore_wait %{{.*}}, %{{.*}} reset %{{.*}} : !d2m.local_semaphore
  d2m.semaphore_wait %s, %c1 reset %c0 : !d2m.local_semaphore
  // CHECK: d2m.local_copy from %{{.*}} into %{{.*}} indexing_maps = [#map{{[0-9]*}}, #map{{[0-9]*}}] : !d2m.cb<{{.*}}>, !d2m.cb<{{.*}}>
  d2m.local_copy from %cb0 into %cb1 indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] : !cbt, !cbt
  // CHECK: d2m.local_copy %{{.*}}, %{{.*}} indexing_maps = [{{.*}}] : memref<1x1x{{.*}}>, memref<1x1x{{.*}}> -> !d2m.mem_tx<read>
  %t = d2m.local_copy %buf, %buf indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] : !blk, !blk -> !d2m.mem_tx<read>
  return
}
