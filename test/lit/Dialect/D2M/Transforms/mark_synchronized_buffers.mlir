// RUN: ttmlir-opt --d2m-mark-synchronized-buffers %s | FileCheck %s
// RUN: ttmlir-opt "--d2m-mark-synchronized-buffers=num-stream-buffers=3" %s | FileCheck %s --check-prefix=THREE
// RUN: not ttmlir-opt "--d2m-mark-synchronized-buffers=num-stream-buffers=0" %s 2>&1 | FileCheck %s --check-prefix=ZERO
// The buffers a generic's loads, stores and compute write or read are circular buffers: each is marked with the
// buffers its stream cycles through (num-stream-buffers), one for an accumulated output or a reduction scaler; a
// buffer passed from one linalg.generic to one other is a compute intermediate. Other allocs are left alone.

!tile = !ttcore.tile<32x32, bf16>
!dev = memref<1x1x2x2x!tile, #ttcore.shard<4096x2048, 1>, #ttcore.memory_space<dram>>
!blk = memref<2x2x!tile, #ttcore.memory_space<l1>>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @chain
// THREE-LABEL: func.func @chain
// ZERO: num-stream-buffers must be at least 1
func.func @chain(%in: !dev, %out: !dev) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
      ins(%in : !dev) outs(%out : !dev) {
  ^unified0:
    %c0 = arith.constant 0 : index
    // CHECK: %[[IN:.*]] = memref.alloc() {d2m.synchronized_buffer = 2 : i32}
    // THREE: memref.alloc() {d2m.synchronized_buffer = 3 : i32}
    %a = memref.alloc() : !blk
    d2m.remote_load %a %in[%c0, %c0] : !blk, !dev
    // CHECK: %[[MID:.*]] = memref.alloc() {d2m.compute_intermediate, d2m.synchronized_buffer = 2 : i32}
    %b = memref.alloc() : !blk
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : !blk) outs(%b : !blk) {
    ^bb0(%x: !tile, %y: !tile):
      %e = "d2m.tile_exp"(%x) : (!tile) -> !tile
      linalg.yield %e : !tile
    }
    // CHECK: %[[SCALER:.*]] = memref.alloc() {d2m.reduction_scaler, d2m.synchronized_buffer = 1 : i32}
    %s = memref.alloc() {d2m.reduction_scaler} : !blk
    // CHECK: %[[ACC:.*]] = memref.alloc() {d2m.synchronized_buffer = 1 : i32}
    %c = memref.alloc() : !blk
    linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%b, %s : !blk, !blk) outs(%c : !blk) {
    ^bb0(%x: !tile, %w: !tile, %acc: !tile):
      %r = "d2m.tile_reduce_sum"(%x, %w, %acc) <{reduce_dim = #d2m<reduce_dim R>}> : (!tile, !tile, !tile) -> !tile
      linalg.yield %r : !tile
    }
    // CHECK: %[[SPARE:.*]] = memref.alloc() : memref<2x2
    %unused = memref.alloc() : !blk
    // a block tilized into a buffer writes it; the rows it reads are a buffer too
    // CHECK: %[[ROWS:.*]] = memref.alloc() {d2m.synchronized_buffer = 2 : i32} : memref<64x64xbf16
    // CHECK: %[[TILED:.*]] = memref.alloc() {d2m.synchronized_buffer = 2 : i32} : memref<2x2
    %rows = memref.alloc() : memref<64x64xbf16, #ttcore.memory_space<l1>>
    %tiled = memref.alloc() : !blk
    "d2m.tile_tilize_block"(%rows, %tiled) : (memref<64x64xbf16, #ttcore.memory_space<l1>>, !blk) -> ()
    d2m.remote_store %out[%c0, %c0] %c : !dev, !blk
  }
  return
}
