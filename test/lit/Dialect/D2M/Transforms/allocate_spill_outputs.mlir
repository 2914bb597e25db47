// RUN: ttmlir-opt --ttcore-register-device "--d2m-allocate=allow-l1-output-spilling=true test-assume-l1-capacity=49152" %s | FileCheck %s --check-prefix=SPILL
// RUN: ttmlir-opt --ttcore-register-device "--d2m-allocate=allow-l1-output-spilling=true" %s | FileCheck %s --check-prefix=FITS
// RUN: ttmlir-opt --ttcore-register-device "--d2m-allocate=force-spill-to-dram-if-legal=true" %s | FileCheck %s --check-prefix=BOUND
// RUN: not ttmlir-opt --ttcore-register-device "--d2m-allocate=test-assume-l1-capacity=24576" %s 2>&1 | FileCheck %s --check-prefix=OOM
// An intermediate (one generic's output another reads) may move to DRAM under allow-l1-output-spilling when L1
// cannot hold everything: it keeps its layout, and both generics move its blocks through stream buffers. When L1
// holds it, the stream buffers kept in case become aliases of it again. Without the option a generic output is
// bound to L1, even under force-spill-to-dram-if-legal, and a function that does not fit is refused.

#l1 = #ttcore.memory_space<l1>
#id = affine_map<(d0, d1) -> (d0, d1)>
#parallel = #ttcore.iterator_type<parallel>
!t = memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
!blk = memref<2x2x!ttcore.tile<32x32, f32>, #l1>

// SPILL-LABEL: func.func @chain
// SPILL: %[[TMP:.*]] = memref.alloc() {{.*}} : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #dram>
// SPILL: outs(%[[TMP]] : {{.*}}#dram>)
// SPILL: %[[W:.*]] = memref.alloc() {{.*}}d2m.synchronized_buffer = 2 : i32} : memref<2x2x!ttcore.tile<32x32, f32>, #l1>
// SPILL: d2m.remote_store %[[TMP]][{{.*}}] %[[W]]
// SPILL: ins(%[[TMP]] : {{.*}}#dram>)
// SPILL: %[[R:.*]] = memref.alloc() {{.*}}d2m.synchronized_buffer = 2 : i32} : memref<2x2x!ttcore.tile<32x32, f32>, #l1>
// SPILL-NEXT: d2m.remote_load %[[R]] %[[TMP]]
// SPILL-NOT: speculative
// FITS-LABEL: func.func @chain
// FITS: %[[TMP:.*]] = memref.alloc() {{.*}}#l1>
// FITS: d2m.operand_alias %[[TMP]]
// FITS: d2m.operand_alias %[[TMP]]
// FITS-NOT: speculative
// BOUND-LABEL: func.func @chain
// BOUND-NOT: #dram>
// BOUND: d2m.operand_alias
// OOM: error: 'func.func' op required L1 memory usage {{[0-9]+}} exceeds memory capacity 24576
func.func @chain(%in: !t) -> !t {
  %tmp = memref.alloc() : !t
  %out = memref.alloc() : !t
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#parallel, #parallel], threads = [#d2m.thread<unified>]}
      ins(%in : !t) outs(%tmp : !t) {
  ^unified0():
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %0 = memref.alloc() : !blk
    d2m.remote_load %0 %in[%i, %j] : !blk, !t
    %1 = memref.alloc() : !blk
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : !blk) outs(%1 : !blk) {
    ^bb0(%x: !ttcore.tile<32x32, f32>, %z: !ttcore.tile<32x32, f32>):
      %r = "d2m.tile_exp"(%x) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
      linalg.yield %r : !ttcore.tile<32x32, f32>
    }
    d2m.remote_store %tmp[%i, %j] %1 : !t, !blk
  }
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#parallel, #parallel], threads = [#d2m.thread<unified>]}
      ins(%tmp : !t) outs(%out : !t) {
  ^unified0():
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %0 = memref.alloc() : !blk
    d2m.remote_load %0 %tmp[%i, %j] : !blk, !t
    %1 = memref.alloc() : !blk
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : !blk) outs(%1 : !blk) {
    ^bb0(%x: !ttcore.tile<32x32, f32>, %z: !ttcore.tile<32x32, f32>):
      %r = "d2m.tile_negative"(%x) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
      linalg.yield %r : !ttcore.tile<32x32, f32>
    }
    d2m.remote_store %out[%i, %j] %1 : !t, !blk
  }
  return %out : !t
}
