// RUN: ttmlir-opt --split-input-file --d2m-generic-replace-globals %s | FileCheck %s
// A ttcore.get_global inside a d2m.generic becomes the generic's operand at the global's index; outside one it
// stays.

// CHECK-LABEL: func.func @reads_operand
// CHECK-SAME: (%[[A:.*]]: tensor<64x64xf32>, %[[B:.*]]: tensor<64x64xf32>)
// CHECK: %[[KEPT:.*]] = ttcore.get_global @second : tensor<64x64xf32>
// CHECK: d2m.generic
// CHECK-NOT: ttcore.get_global
// CHECK: %[[X:.*]] = tensor.extract %[[B]]
// CHECK: %[[Y:.*]] = tensor.extract %[[A]]
// CHECK: return %[[KEPT]]
module {
  ttcore.global @first = tensor<64x64xf32> [0]
  ttcore.global @second = tensor<64x64xf32> [1]
  func.func @reads_operand(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %kept = ttcore.get_global @second : tensor<64x64xf32>
    %out = d2m.empty() : tensor<64x64xf32>
    %r = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>,
        indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
        iterator_types = [#ttcore.iterator_type<parallel>, #ttcore.iterator_type<parallel>],
        threads = [#d2m.thread<compute>]}
        ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) {
    ^bb0:
      %cb = d2m.get_cb(2) : !d2m.cb<tensor<64x64xf32>>
      %o = d2m.reserve %cb : !d2m.cb<tensor<64x64xf32>> -> tensor<64x64xf32>
      %g1 = ttcore.get_global @second : tensor<64x64xf32>
      %g0 = ttcore.get_global @first : tensor<64x64xf32>
      %c0 = arith.constant 0 : index
      %x = tensor.extract %g1[%c0, %c0] : tensor<64x64xf32>
      %y = tensor.extract %g0[%c0, %c0] : tensor<64x64xf32>
      %s = arith.addf %x, %y : f32
      %w = tensor.insert %s into %o[%c0, %c0] : tensor<64x64xf32>
      d2m.yield %w : (tensor<64x64xf32>)
    } : tensor<64x64xf32>
    return %kept : tensor<64x64xf32>
  }
}

