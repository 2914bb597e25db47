// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// A DMA transfer's kind is read, write or mcast_write; a local copy names a source and a destination.

// expected-error @+1 {{expected one of read, write, mcast_write for a DMA type, got copy}}
func.func @bad_kind(%t: !d2m.mem_tx<copy>) {
  return
}

// -----

func.func @bad_copy(%cb0: !d2m.cb<memref<1x1xf32, #ttcore.memory_space<l1>>>) {
  // expected-error @+1 {{'d2m.local_copy' op expects two indexing maps (source, destination)}}
  d2m.local_copy from %cb0 into %cb0 indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>] : !d2m.cb<memref<1x1xf32, #ttcore.memory_space<l1>>>, !d2m.cb<memref<1x1xf32, #ttcore.memory_space<l1>>>
  return
}
