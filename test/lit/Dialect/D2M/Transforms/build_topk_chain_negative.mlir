// RUN: true
// Checked from build_topk_chain.mlir: a topk one core's L1 cannot hold is refused (splits are not built yet).

// CHECK: build_topk_chain_negative.mlir:[[# @LINE + 2]]:12: error: D2M topk: one core holds at most 60 tiles of its input, values and indices, not the 16x4 of this one
func.func @too_wide(%a: tensor<128x512xf32>) -> (tensor<128x8xf32>, tensor<128x8xsi32>) {
  %v, %i = "ttir.topk"(%a) <{k = 8 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<128x512xf32>) -> (tensor<128x8xf32>, tensor<128x8xsi32>)
  return %v, %i : tensor<128x8xf32>, tensor<128x8xsi32>
}
