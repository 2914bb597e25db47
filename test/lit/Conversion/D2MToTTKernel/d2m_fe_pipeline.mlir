// RUN: ttmlir-opt --d2m-fe-pipeline %s | FileCheck %s
// RUN: ttmlir-opt "--d2m-fe-pipeline=override-device-shape=1,1 default-input-memspace=dram" %s | FileCheck %s --check-prefix=OPTS
// The D2M frontend: a TTIR op becomes allocated programs in explicit data-movement form: the host tensor moved to
// the device (row-major), tilized, computed and untilized by unified-thread generics on the selected grid, each
// block loaded and stored by remote loads/stores; an operand whose L1 shard is the block is aliased, not copied.

// CHECK-LABEL: func.func @exp
// CHECK: d2m.to_device %arg0, %[[RM:.*]] layout
// CHECK: d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<unified>]}
// CHECK: "d2m.tile_tilize_block"
// CHECK: d2m.generic {block_factors = [], grid = #ttcore.grid<2x2>
// CHECK: %[[CORE0:.*]] = d2m.core_index(0) : index
// CHECK: %[[CORE1:.*]] = d2m.core_index(1) : index
// CHECK: %[[IN:.*]] = d2m.operand_alias %{{.*}} : memref<2x2x1x1x!ttcore.tile<32x32, bf16>, {{.*}}, #l1> -> memref<1x1x!ttcore.tile<32x32, bf16>, #l1>
// CHECK-NEXT: d2m.remote_load %[[IN]] %{{.*}}[%[[CORE0]], %[[CORE1]]]
// CHECK: "d2m.tile_exp"
// CHECK: d2m.remote_store %{{.*}}[%[[CORE0]], %[[CORE1]]]
// CHECK: "d2m.tile_untilize_block"
// CHECK: d2m.to_host
// the device buffers have their L1 addresses
// CHECK-NOT: memref.alloc() : memref<{{.*}}#l1>
// With a 1x1 device and inputs in DRAM, the input lands interleaved in DRAM and the programs run on one core.
// OPTS-LABEL: func.func @exp
// OPTS: memref.alloc() {address = {{[0-9]+}} : i64, alignment = 32 : i64} : memref<1x1x64x64xbf16, #ttcore.interleaved<128x2>, #dram>
// OPTS: d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>
func.func @exp(%a: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %0 = "ttir.exp"(%a) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %0 : tensor<64x64xbf16>
}
