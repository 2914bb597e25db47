// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttmetal %s 2>&1 | FileCheck %s --check-prefix=HOST
// convert-d2m-to-ttmetal refuses a program whose threads name no ttkernel function (a kernel function still of D2M
// ops: convert-d2m-to-ttkernel lowers it first).

#l1_ = #ttcore.memory_space<l1>
!t = tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<logical_shape = 32x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>>

module {
  func.func @program(%a: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %e = d2m.empty() : !t
    %d = d2m.to_layout %a, %e : tensor<32x32xf32> into !t -> !t
    %o = d2m.empty() : !t
    // HOST: error: a program's threads name kernel functions in the ttkernel dialect (--convert-d2m-to-ttkernel makes them)
    %r = d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute, @compute0>]} ins(%d : !t) outs(%o : !t) additionalArgs(%d, %o : !t, !t) : !t
    %h = d2m.empty() : tensor<32x32xf32>
    %b = d2m.to_layout %r, %h : !t into tensor<32x32xf32> -> tensor<32x32xf32>
    return %b : tensor<32x32xf32>
  }

  func.func private @compute0() attributes {d2m.thread = #d2m.thread<compute>} {
    %cb0 = d2m.get_cb(0) : !d2m.cb<memref<1x1x!ttcore.tile<32x32, f32>, #l1_>>
    return
  }
}
