// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection %s | FileCheck %s --check-prefix=PLAN
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection %s | ttmlir-opt --d2m-build-topk-chain | FileCheck %s --check-prefix=BUILT
// RUN: not ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --split-input-file %S/build_topk_chain_negative.mlir 2>&1 | FileCheck %S/build_topk_chain_negative.mlir
// d2m-grid-selection plans each topk leaf: one core when its input, values and indices fit a core's L1 (CBs
// double-buffered), every buffer of the chain placed in build order (pre-transpose, scratch, values, indices, the
// extracts); the chain keeps the 1x1 grids the plan names. d2m-build-topk-chain checks the chain against the plan and
// drops it.

// PLAN-LABEL: func.func @plan
// PLAN: d2m.generic {{{.*}}grid = #ttcore.grid<1x1>
// PLAN: "d2m.tile_transpose"
// PLAN: d2m.generic {{{.*}}d2m.topk_plan = #d2m.topk_plan<numShards = 1, ntShards = 1, mergeSchedule = [], placements = [
// PLAN-SAME: #d2m.topk_placement<type = tensor<1x1x3x2x!ttcore.tile<32x32, f32>, #layout{{[0-9]*}}>, grid = #ttcore.grid<1x1>>,
// PLAN-SAME: #d2m.topk_placement<type = tensor<1x1x1x1x!ttcore.tile<32x32, si32>, #layout{{[0-9]*}}>, grid = #ttcore.grid<1x1>>,
// PLAN-SAME: #d2m.topk_placement<type = tensor<1x1x3x2x!ttcore.tile<32x32, f32>, #layout{{[0-9]*}}>, grid = #ttcore.grid<1x1>>,
// PLAN-SAME: #d2m.topk_placement<type = tensor<1x1x3x2x!ttcore.tile<32x32, si32>, #layout{{[0-9]*}}>, grid = #ttcore.grid<1x1>>,
// PLAN-SAME: #d2m.topk_placement<type = tensor<1x1x3x1x!ttcore.tile<32x32, f32>, #layout{{[0-9]*}}>, grid = #ttcore.grid<1x1>>,
// PLAN-SAME: #d2m.topk_placement<type = tensor<1x1x3x1x!ttcore.tile<32x32, si32>, #layout{{[0-9]*}}>, grid = #ttcore.grid<1x1>>]>
// PLAN-SAME: grid = #ttcore.grid<1x1>

// BUILT-LABEL: func.func @plan
// BUILT-NOT: d2m.topk_plan
// BUILT: "d2m.topk_block"
// BUILT-NOT: d2m.topk_plan
func.func @plan(%arg0: tensor<96x64xf32>) -> (tensor<96x4xf32>, tensor<96x4xsi32>) {
  %v, %i = "ttir.topk"(%arg0) <{k = 4 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<96x64xf32>) -> (tensor<96x4xf32>, tensor<96x4xsi32>)
  return %v, %i : tensor<96x4xf32>, tensor<96x4xsi32>
}

// Over one core's L1 (16 reduction tiles by 4): two bands of 8 on a 1x2 grid, one merge round onto one core.
// PLAN-LABEL: func.func @banded
// PLAN: d2m.topk_plan = #d2m.topk_plan<numShards = 2, ntShards = 1, mergeSchedule = [1], placements = [
// BUILT-LABEL: func.func @banded
// BUILT: d2m.generic {{{.*}}grid = #ttcore.grid<1x2>
// BUILT: "d2m.topk_block"({{.*}}) <{dim = 1 : i32, generate_indices = true, k = 16 : i32, num_elements = 512 : i64
// Each band's best tile: tile j of the narrowed level is tile (j floordiv 1) * 8 + j mod 1 of the partials.
// BUILT: d2m.view_layout %{{.*}}#0 remapping = #[[NARROW:map[0-9]*]] : tensor<1x2x4x8x!ttcore.tile<32x32, f32>, {{.*}}> -> tensor<1x2x4x1x!ttcore.tile<32x32, f32>
// BUILT: d2m.view_layout %{{.*}}#1 remapping = #[[NARROW]] : tensor<1x2x4x8x!ttcore.tile<32x32, si32>
// BUILT: "d2m.composite_view"(%{{.*}}) <{dim = 1 : si32}> : (tensor<1x2x4x1x!ttcore.tile<32x32, f32>, {{.*}}>) -> tensor<1x1x4x2x!ttcore.tile<32x32, f32>
// BUILT: "d2m.composite_view"(%{{.*}}) <{dim = 1 : si32}> : (tensor<1x2x4x1x!ttcore.tile<32x32, si32>, {{.*}}>) -> tensor<1x1x4x2x!ttcore.tile<32x32, si32>
// BUILT: d2m.generic {{{.*}}grid = #ttcore.grid<1x1>
// BUILT: "d2m.topk_block"({{.*}}) <{dim = 1 : i32, generate_indices = false, k = 16 : i32, num_elements = 64 : i64
// BUILT: "d2m.tile_transpose"
// BUILT: d2m.to_layout {{.*}} into tensor<128x16xf32>
func.func @banded(%arg0: tensor<128x512xf32>) -> (tensor<128x16xf32>, tensor<128x16xsi32>) {
  %v, %i = "ttir.topk"(%arg0) <{k = 16 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<128x512xf32>) -> (tensor<128x16xf32>, tensor<128x16xsi32>)
  return %v, %i : tensor<128x16xf32>, tensor<128x16xsi32>
}

// Non-target rows over one core's L1 with a reduction too short to band: eight slices of eight tile rows.
// PLAN-LABEL: func.func @sliced
// PLAN: d2m.topk_plan = #d2m.topk_plan<numShards = 1, ntShards = 8, mergeSchedule = [], placements = [
// BUILT-LABEL: func.func @sliced
// BUILT: d2m.to_layout %arg0, %{{.*}} -> tensor<8x1x8x3x!ttcore.tile<32x32, f32>
// BUILT: "d2m.topk_block"({{.*}}) <{dim = 1 : i32, generate_indices = true, k = 8 : i32, num_elements = 96 : i64
// BUILT-NOT: d2m.composite_view
// BUILT: d2m.to_layout {{.*}} into tensor<2048x8xf32>
func.func @sliced(%arg0: tensor<2048x96xf32>) -> (tensor<2048x8xf32>, tensor<2048x8xsi32>) {
  %v, %i = "ttir.topk"(%arg0) <{k = 8 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<2048x96xf32>) -> (tensor<2048x8xf32>, tensor<2048x8xsi32>)
  return %v, %i : tensor<2048x8xf32>, tensor<2048x8xsi32>
}
