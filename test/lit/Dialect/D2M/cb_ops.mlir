// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// The explicit-CB form of a generic: thread attributes with kernels and cores, circular buffers acquired and
// released, loads into and stores from a CB, and a region that is only a label.

#l1 = #ttcore.memory_space<l1>
#dram = #ttcore.memory_space<dram>
#id = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>

// CHECK-LABEL: func.func private @reader
// CHECK-SAME: d2m.thread = #d2m.thread<datamovement, @reader, dm_core = 0>
func.func private @reader() attributes {d2m.thread = #d2m.thread<datamovement, @reader, dm_core = 0>} {
  return
}

// CHECK-LABEL: func.func @copy
func.func @copy(%src: memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #dram>, %dst: memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) {
  // CHECK: threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]
  // CHECK-NEXT: ins(%{{.*}} : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #dram>)
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#par, #par], threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]}
      ins(%src : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #dram>)
      outs(%dst : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) {
  ^datamovement0:
    %c0 = arith.constant 0 : index
    // CHECK: %[[IN:.*]] = d2m.get_cb(0) : <memref<2x2x!ttcore.tile<32x32, f32>, #l1>>
    %in = d2m.get_cb(0) : !d2m.cb<memref<2x2x!ttcore.tile<32x32, f32>, #l1>>
    // CHECK: d2m.remote_load %{{.*}}[%{{.*}}, %{{.*}}] into %[[IN]] : memref<{{.*}}> into !d2m.cb<memref<2x2x!ttcore.tile<32x32, f32>, #l1>>
    d2m.remote_load %src[%c0, %c0] into %in : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #dram> into !d2m.cb<memref<2x2x!ttcore.tile<32x32, f32>, #l1>>
    // CHECK: mcore[%{{.*}}, %{{.*}}] mshape[%{{.*}}, %{{.*}}]
    d2m.remote_load %src[%c0, %c0] into %in mcore[%c0, %c0] mshape[%c0, %c0] : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #dram> into !d2m.cb<memref<2x2x!ttcore.tile<32x32, f32>, #l1>>
  }, {
  ^compute0:
    %c0 = arith.constant 0 : index
    %in = d2m.get_cb(0) : !d2m.cb<memref<2x2x!ttcore.tile<32x32, f32>, #l1>>
    %out = d2m.get_cb(1) : !d2m.cb<memref<2x2x!ttcore.tile<32x32, f32>, #l1>>
    // CHECK: d2m.wait %{{.*}} : <memref<2x2x!ttcore.tile<32x32, f32>, #l1>> -> memref<2x2x!ttcore.tile<32x32, f32>, #l1>
    %a = d2m.wait %in : !d2m.cb<memref<2x2x!ttcore.tile<32x32, f32>, #l1>> -> memref<2x2x!ttcore.tile<32x32, f32>, #l1>
    // CHECK: d2m.reserve
    %b = d2m.reserve %out : !d2m.cb<memref<2x2x!ttcore.tile<32x32, f32>, #l1>> -> memref<2x2x!ttcore.tile<32x32, f32>, #l1>
    // CHECK: d2m.store %{{.*}}, %{{.*}} : memref<2x2x!ttcore.tile<32x32, f32>, #l1>
    d2m.store %b, %a : memref<2x2x!ttcore.tile<32x32, f32>, #l1>
    // CHECK: d2m.push %{{.*}} : <
    d2m.push %out : !d2m.cb<memref<2x2x!ttcore.tile<32x32, f32>, #l1>>
    // CHECK: d2m.pop %{{.*}} : <
    d2m.pop %in : !d2m.cb<memref<2x2x!ttcore.tile<32x32, f32>, #l1>>
    // CHECK: d2m.remote_store %{{.*}}[%{{.*}}, %{{.*}}] from %{{.*}} : memref<{{.*}}> from !d2m.cb<
    d2m.remote_store %dst[%c0, %c0] from %out : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1> from !d2m.cb<memref<2x2x!ttcore.tile<32x32, f32>, #l1>>
  }
  // CHECK: ^datamovement0:
  // CHECK-NEXT: }, {
  // CHECK-NEXT: ^compute0:
  // CHECK-NEXT: }
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]}
      ins() outs(%dst : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) {
  ^datamovement0:
  }, {
  ^compute0:
  }
  return
}
