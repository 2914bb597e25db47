// RUN: true
// Checked from build_topk_chain.mlir: a topk neither bands of its reduction nor slices of its non-target dim fit.

// CHECK: build_topk_chain_negative.mlir:[[# @LINE + 2]]:12: error: D2M topk: no split of the reduction (bands) or of the non-target dimension (slices) fits the per-core tile budget (60 tiles)
func.func @too_large(%a: tensor<8192x16384xf32>) -> (tensor<8192x8xf32>, tensor<8192x8xsi32>) {
  %v, %i = "ttir.topk"(%a) <{k = 8 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<8192x16384xf32>) -> (tensor<8192x8xf32>, tensor<8192x8xsi32>)
  return %v, %i : tensor<8192x8xf32>, tensor<8192x8xsi32>
}
