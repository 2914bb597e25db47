// RUN: ttmlir-opt --split-input-file --ttcore-register-device --convert-d2m-to-ttnn %s -verify-diagnostics
// convert-d2m-to-ttnn refuses a generic whose data-movement thread runs on a core TTNN's program cannot name,
// and a kernel without its argument spec.

!l1 = memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #ttcore.memory_space<l1>>

func.func @third_dm_core() {
  %a = memref.alloc() : !l1
  // expected-error@+1 {{DM core indices greater than 1 are not supported by D2MToTTNN lowering yet}}
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement, @k, dm_core = 2>]}
      ins() outs(%a : !l1)
  return
}
func.func private @k() attributes {ttkernel.arg_spec = #ttkernel.arg_spec< >, ttkernel.thread = #ttkernel.thread<noc>} {
  return
}

// -----

!l1 = memref<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #ttcore.memory_space<l1>>

func.func @no_spec() {
  %a = memref.alloc() : !l1
  // expected-error@+1 {{kernel function @k has no ttkernel.arg_spec}}
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute, @k>]}
      ins() outs(%a : !l1)
  return
}
func.func private @k() {
  return
}
