// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttmetal %s 2>&1 | FileCheck %s
// A core has two data-movement RISCs (dm_core 0 and 1, one per NoC): a thread on a third is refused at its generic.

!t = tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<logical_shape = 32x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>>

module {
  func.func @program(%a: !t) -> !t {
    %o = d2m.empty() : !t
    // CHECK: dm_core_negative.mlir:10:10: error: DM core indices greater than 1 are not supported by D2MToTTMetal lowering yet
    %r = d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement, @reader, dm_core = 2>]} ins(%a : !t) outs(%o : !t) additionalArgs(%a, %o : !t, !t) : !t
    return %r : !t
  }
  func.func private @reader() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
    return
  }
}
