// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// RUN: ttmlir-opt --cse %s | FileCheck %s --check-prefix=CSE
// On tensors a generic or a to_layout only makes values, so an unused one goes; on memrefs it writes its output
// in place and stays. An empty is an allocation: dropped when unused, never merged with another.

#l1 = #ttcore.memory_space<l1>
#id = affine_map<(d0, d1) -> (d0, d1)>
#par = #ttcore.iterator_type<parallel>

// CHECK-LABEL: func.func @unused_tensor_ops
// CHECK-NEXT: return %arg0
func.func @unused_tensor_ops(%a: tensor<2x2x!ttcore.tile<32x32, f32>>) -> tensor<2x2x!ttcore.tile<32x32, f32>> {
  %0 = d2m.empty() : tensor<2x2x!ttcore.tile<32x32, f32>>
  %1 = d2m.to_layout %a, %0 : tensor<2x2x!ttcore.tile<32x32, f32>> into tensor<2x2x!ttcore.tile<32x32, f32>> -> tensor<2x2x!ttcore.tile<32x32, f32>>
  %2 = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#par, #par], threads = [#d2m.thread<compute>]}
      ins(%a : tensor<2x2x!ttcore.tile<32x32, f32>>) outs(%0 : tensor<2x2x!ttcore.tile<32x32, f32>>) {
  ^compute0:
    d2m.yield %0 : (tensor<2x2x!ttcore.tile<32x32, f32>>)
  } : tensor<2x2x!ttcore.tile<32x32, f32>>
  return %a : tensor<2x2x!ttcore.tile<32x32, f32>>
}

// CHECK-LABEL: func.func @memref_ops_stay
// CHECK: d2m.to_layout
// CHECK: d2m.generic
func.func @memref_ops_stay(%a: memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>, %b: memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) {
  d2m.to_layout %a, %b : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1> into memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
  d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#par, #par], threads = [#d2m.thread<compute>]}
      ins(%a : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) outs(%b : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) {
  ^compute0:
  }
  return
}

// CSE-LABEL: func.func @two_empties
// CSE: d2m.empty
// CSE: d2m.empty
func.func @two_empties() -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = d2m.empty() : tensor<2x2xf32>
  %1 = d2m.empty() : tensor<2x2xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<2x2xf32>
}

// A linalg.generic computing into a reserved block computes into a fresh empty instead; the store writes it back.
// CHECK-LABEL: func.func @fresh_linalg_init
// CHECK: %[[R:.*]] = d2m.reserve
// CHECK: %[[E:.*]] = d2m.empty() : tensor<1x1x!ttcore.tile<32x32, f32>>
// CHECK-NEXT: linalg.generic
// CHECK-SAME: outs(%[[E]] :
// CHECK: d2m.store %[[R]], %{{.*}} : tensor<1x1x!ttcore.tile<32x32, f32>>
func.func @fresh_linalg_init(%a: tensor<1x1x!ttcore.tile<32x32, f32>>) -> tensor<1x1x!ttcore.tile<32x32, f32>> {
  %0 = d2m.empty() : tensor<1x1x!ttcore.tile<32x32, f32>>
  %1 = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<1x1>, indexing_maps = [#id, #id], iterator_types = [#par, #par], threads = [#d2m.thread<compute>]}
      ins(%a : tensor<1x1x!ttcore.tile<32x32, f32>>) outs(%0 : tensor<1x1x!ttcore.tile<32x32, f32>>) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !d2m.cb<tensor<1x1x!ttcore.tile<32x32, f32>>>
    %cb1 = d2m.get_cb(1) : !d2m.cb<tensor<1x1x!ttcore.tile<32x32, f32>>>
    %in = d2m.wait %cb0 : <tensor<1x1x!ttcore.tile<32x32, f32>>> -> tensor<1x1x!ttcore.tile<32x32, f32>>
    %out = d2m.reserve %cb1 : <tensor<1x1x!ttcore.tile<32x32, f32>>> -> tensor<1x1x!ttcore.tile<32x32, f32>>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%in : tensor<1x1x!ttcore.tile<32x32, f32>>) outs(%out : tensor<1x1x!ttcore.tile<32x32, f32>>) {
    ^bb1(%x: !ttcore.tile<32x32, f32>, %y: !ttcore.tile<32x32, f32>):
      %e = "d2m.tile_exp"(%x) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
      linalg.yield %e : !ttcore.tile<32x32, f32>
    } -> tensor<1x1x!ttcore.tile<32x32, f32>>
    d2m.store %out, %r : tensor<1x1x!ttcore.tile<32x32, f32>>
    d2m.yield %0 : (tensor<1x1x!ttcore.tile<32x32, f32>>)
  } : tensor<1x1x!ttcore.tile<32x32, f32>>
  return %1 : tensor<1x1x!ttcore.tile<32x32, f32>>
}
