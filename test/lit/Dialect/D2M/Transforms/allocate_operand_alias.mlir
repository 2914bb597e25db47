// RUN: ttmlir-opt --ttcore-register-device --d2m-allocate %s | FileCheck %s --check-prefix=INFER
// RUN: ttmlir-opt --ttcore-register-device "--d2m-allocate=stream-insert-policy=always num-stream-buffers=3" %s | FileCheck %s --check-prefix=ALWAYS
// RUN: not ttmlir-opt --ttcore-register-device "--d2m-allocate=stream-insert-policy=never" %s 2>&1 | FileCheck %s --check-prefix=BAD
// d2m-allocate works on a generic operand's shards in place (a d2m.operand_alias of it in the region) when no
// data moves: an L1 output always; under `infer` also an L1 input read along parallel dims only. An input read
// along a reduction dim, or one in DRAM, and under `always` every input, gets a stream buffer of
// num-stream-buffers buffers (`d2m.synchronized_buffer`), given an address like the other buffers.

#l1 = #ttcore.memory_space<l1>
#dram = #ttcore.memory_space<dram>
#mapL = affine_map<(d0, d1, d2) -> (d0, d2)>
#mapR = affine_map<(d0, d1, d2) -> (d2, d1)>
#mapO = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#parallel = #ttcore.iterator_type<parallel>
#reduction = #ttcore.iterator_type<reduction>
!t = memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
!d = memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.interleaved<8192x4096>, #dram>
!blk = memref<2x2x!ttcore.tile<32x32, f32>, #l1>

// INFER-LABEL: func.func @eltwise
// INFER: d2m.operand_alias %{{.*}} : memref<1x1x2x2x{{.*}}#l1> -> memref<2x2x!ttcore.tile<32x32, f32>, #l1>
// INFER: memref.alloc() {address = {{[0-9]+}} : i64, alignment = {{[0-9]+}} : i64, d2m.synchronized_buffer = 2 : i32}
// INFER-NEXT: d2m.remote_load {{.*}} : {{.*}}, memref<1x1x2x2x{{.*}}#dram>
// INFER: d2m.operand_alias %{{.*}} : memref<1x1x2x2x{{.*}}#l1> -> memref<2x2x!ttcore.tile<32x32, f32>, #l1>
// INFER-NEXT: linalg.generic
// ALWAYS-LABEL: func.func @eltwise
// ALWAYS: memref.alloc() {address = {{[0-9]+}} : i64, alignment = {{[0-9]+}} : i64, d2m.synchronized_buffer = 3 : i32}
// ALWAYS: memref.alloc() {address = {{[0-9]+}} : i64, alignment = {{[0-9]+}} : i64, d2m.synchronized_buffer = 3 : i32}
// ALWAYS: d2m.operand_alias
// ALWAYS-NOT: d2m.operand_alias
// ALWAYS: return
func.func @eltwise(%a: !t, %b: !d) -> !t {
  %out = memref.alloc() : !t
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id, #id], iterator_types = [#parallel, #parallel], threads = [#d2m.thread<unified>]}
      ins(%a, %b : !t, !d) outs(%out : !t) {
  ^unified0():
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %0 = memref.alloc() : !blk
    d2m.remote_load %0 %a[%i, %j] : !blk, !t
    %1 = memref.alloc() : !blk
    d2m.remote_load %1 %b[%i, %j] : !blk, !d
    %2 = memref.alloc() : !blk
    linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%0, %1 : !blk, !blk) outs(%2 : !blk) {
    ^bb0(%x: !ttcore.tile<32x32, f32>, %y: !ttcore.tile<32x32, f32>, %z: !ttcore.tile<32x32, f32>):
      %r = "d2m.tile_add"(%x, %y) : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
      linalg.yield %r : !ttcore.tile<32x32, f32>
    }
    d2m.remote_store %out[%i, %j] %2 : !t, !blk
  }
  return %out : !t
}

// INFER-LABEL: func.func @matmul
// INFER: d2m.synchronized_buffer = 2 : i32
// INFER-NEXT: d2m.remote_load
// INFER: d2m.synchronized_buffer = 2 : i32
// INFER-NEXT: d2m.remote_load
// INFER: d2m.operand_alias
// INFER-NEXT: linalg.generic
// BAD: error: unknown stream-insert-policy 'never' (expected one of: always, infer)
func.func @matmul(%a: !t, %b: !t) -> !t {
  %c = memref.alloc() : !t
  d2m.generic {block_factors = [1, 1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#mapL, #mapR, #mapO], iterator_types = [#parallel, #parallel, #reduction], threads = [#d2m.thread<unified>]}
      ins(%a, %b : !t, !t) outs(%c : !t) {
  ^unified0():
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %k = d2m.block_index(2) : index
    %0 = memref.alloc() : !blk
    d2m.remote_load %0 %a[%i, %k] : !blk, !t
    %1 = memref.alloc() : !blk
    d2m.remote_load %1 %b[%k, %j] : !blk, !t
    %2 = memref.alloc() : !blk
    linalg.generic {indexing_maps = [#mapL, #mapR, #mapO], iterator_types = ["parallel", "parallel", "reduction"]} ins(%0, %1 : !blk, !blk) outs(%2 : !blk) {
    ^bb0(%x: !ttcore.tile<32x32, f32>, %y: !ttcore.tile<32x32, f32>, %z: !ttcore.tile<32x32, f32>):
      %r = "d2m.tile_matmul"(%x, %y, %z) : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
      linalg.yield %r : !ttcore.tile<32x32, f32>
    }
    d2m.remote_store %c[%i, %j] %2 : !t, !blk
  }
  return %c : !t
}

// An input read through a transposing map: core (i, j) works on shard (j, i), held by another core, so it streams.
#swap = affine_map<(d0, d1) -> (d1, d0)>
!g = memref<2x3x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
!gt = memref<3x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
!one = memref<1x1x!ttcore.tile<32x32, f32>, #l1>
// INFER-LABEL: func.func @transposed
// INFER: memref.alloc() {address = {{[0-9]+}} : i64, alignment = {{[0-9]+}} : i64, d2m.synchronized_buffer = 2 : i32}
// INFER-NEXT: d2m.remote_load {{.*}} : memref<1x1x!ttcore.tile<32x32, f32>, #l1>, memref<2x3x1x1x
// INFER: d2m.operand_alias %{{.*}} : memref<3x2x1x1x
func.func @transposed(%a: !g) -> !gt {
  %out = memref.alloc() : !gt
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<3x2>, indexing_maps = [#swap, #id], iterator_types = [#parallel, #parallel], threads = [#d2m.thread<unified>]}
      ins(%a : !g) outs(%out : !gt) {
  ^unified0():
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %0 = memref.alloc() : !one
    d2m.remote_load %0 %a[%j, %i] : !one, !g
    %1 = memref.alloc() : !one
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : !one) outs(%1 : !one) {
    ^bb0(%x: !ttcore.tile<32x32, f32>, %z: !ttcore.tile<32x32, f32>):
      %r = "d2m.tile_transpose"(%x) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
      linalg.yield %r : !ttcore.tile<32x32, f32>
    }
    d2m.remote_store %out[%i, %j] %1 : !gt, !one
  }
  return %out : !gt
}
