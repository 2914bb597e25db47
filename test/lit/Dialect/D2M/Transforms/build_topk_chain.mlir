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
