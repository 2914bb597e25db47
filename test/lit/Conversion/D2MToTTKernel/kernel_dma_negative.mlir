// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel --split-input-file %s 2>&1 >/dev/null | FileCheck %s
// DMA this lowering cannot issue is refused with a located error: a whole shard (not yet fully indexed), a write
// to another device.

#l1 = #ttcore.memory_space<l1>
func.func private @shard_level() attributes {d2m.thread = #d2m.thread<datamovement>} {
  %cb = d2m.get_cb(0) : !d2m.cb<memref<2x!ttcore.tile<32x32, bf16>, #l1>>
  %buf = d2m.get_arg(1) : memref<2x2x1x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<4096x2048, 1>, #l1>
  %c0 = arith.constant 0 : index
  %blk = d2m.reserve %cb : !d2m.cb<memref<2x!ttcore.tile<32x32, bf16>, #l1>> -> memref<2x!ttcore.tile<32x32, bf16>, #l1>
  // CHECK: :[[# @LINE + 1]]:9: error: 'd2m.dma_read' of a whole shard is lowered once fully indexed (d2m-lower-dma-to-fully-indexed-form)
  %tx = d2m.dma_read %buf[%c0, %c0, %c0], %blk[%c0], <0> : (memref<2x2x1x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<4096x2048, 1>, #l1>, memref<2x!ttcore.tile<32x32, bf16>, #l1>) -> !d2m.mem_tx<read>
  return
}

// -----

#l1 = #ttcore.memory_space<l1>
func.func private @fabric() attributes {d2m.thread = #d2m.thread<datamovement>} {
  %cb = d2m.get_cb(0) : !d2m.cb<memref<2x!ttcore.tile<32x32, bf16>, #l1>>
  %buf = d2m.get_arg(1) : memref<2x2x1x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<4096x2048, 1>, #l1>
  %c0 = arith.constant 0 : index
  %blk = d2m.wait %cb : !d2m.cb<memref<2x!ttcore.tile<32x32, bf16>, #l1>> -> memref<2x!ttcore.tile<32x32, bf16>, #l1>
  // CHECK: error: 'd2m.dma_write' to another device needs the fabric, which this build does not lower
  %tx = d2m.dma_write %blk[%c0], %buf[%c0, %c0, %c0] startDevice[%c0, %c0], <2> : (memref<2x!ttcore.tile<32x32, bf16>, #l1>, memref<2x2x1x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<4096x2048, 1>, #l1>) -> !d2m.mem_tx<write>
  return
}

// -----

#l1 = #ttcore.memory_space<l1>
#dram = #ttcore.memory_space<dram>
func.func private @tensor_accessor() attributes {d2m.thread = #d2m.thread<datamovement>} {
  %cb = d2m.get_cb(0) : !d2m.cb<memref<2x!ttcore.tile<32x32, bf16>, #l1>>
  %buf = d2m.get_arg(1) : memref<1x2x1x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<4096x2048, 1>, #dram>
  %c0 = arith.constant 0 : index
  %blk = d2m.reserve %cb : !d2m.cb<memref<2x!ttcore.tile<32x32, bf16>, #l1>> -> memref<2x!ttcore.tile<32x32, bf16>, #l1>
  // CHECK: error: 'd2m.dma_read' through a TensorAccessor (tensorAccessorPageMap) is not lowered in kernel functions yet
  %tx = d2m.dma_read %buf[%c0, %c0], %blk, <2> {tensorAccessorPageMap = affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d3)>} : (memref<1x2x1x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<4096x2048, 1>, #dram>, memref<2x!ttcore.tile<32x32, bf16>, #l1>) -> !d2m.mem_tx<read>
  return
}
