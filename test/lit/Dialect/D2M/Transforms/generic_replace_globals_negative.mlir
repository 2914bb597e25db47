// RUN: ttmlir-opt --split-input-file --d2m-generic-replace-globals %s -verify-diagnostics
// A get_global in a generic naming a global without an index, or no global, is refused where it is.


module {
  ttcore.global @no_index = tensor<64x64xf32>
  func.func @missing_index(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %out = d2m.empty() : tensor<64x64xf32>
    %r = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>,
        indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
        iterator_types = [#ttcore.iterator_type<parallel>, #ttcore.iterator_type<parallel>],
        threads = [#d2m.thread<compute>]}
        ins(%a : tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) {
    ^bb0:
      // expected-error@+2 {{Global must have a valid index attribute}}
      // expected-error@+1 {{failed to legalize operation 'ttcore.get_global'}}
      %g = ttcore.get_global @no_index : tensor<64x64xf32>
      d2m.yield %g : (tensor<64x64xf32>)
    } : tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
}

// -----

module {
  func.func @undefined(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %out = d2m.empty() : tensor<64x64xf32>
    %r = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>,
        indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
        iterator_types = [#ttcore.iterator_type<parallel>, #ttcore.iterator_type<parallel>],
        threads = [#d2m.thread<compute>]}
        ins(%a : tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) {
    ^bb0:
      // expected-error@+2 {{Global symbol not found: "elsewhere"}}
      // expected-error@+1 {{failed to legalize operation 'ttcore.get_global'}}
      %g = ttcore.get_global @elsewhere : tensor<64x64xf32>
      d2m.yield %g : (tensor<64x64xf32>)
    } : tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
}
