// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttmetal --split-input-file %s 2>&1 >/dev/null | FileCheck %s
// A memref-form function whose buffers are not allocated, or whose kernels are not made, is refused.

#l1 = #ttcore.memory_space<l1>
func.func @unallocated() -> memref<1x1x2x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<8192x2048, 1>, #l1> {
  // CHECK: :[[# @LINE + 1]]:10: error: a device buffer needs its address (run d2m-allocate first)
  %out = memref.alloc() : memref<1x1x2x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<8192x2048, 1>, #l1>
  return %out : memref<1x1x2x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<8192x2048, 1>, #l1>
}

// -----

#l1 = #ttcore.memory_space<l1>
func.func @no_spec(%in: memref<1x1x2x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<8192x2048, 1>, #l1>) {
  // CHECK: error: the kernel @k of a program has no ttkernel.arg_spec (run convert-d2m-to-ttkernel first)
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute, @k>]}
      ins(%in : memref<1x1x2x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<8192x2048, 1>, #l1>)
      outs(%in : memref<1x1x2x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<8192x2048, 1>, #l1>)
  return
}
func.func private @k() attributes {d2m.thread = #d2m.thread<compute>} {
  return
}
