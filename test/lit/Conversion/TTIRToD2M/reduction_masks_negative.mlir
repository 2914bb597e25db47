// RUN: true
// Read by reduction_masks.mlir.

func.func @integer_mean(%a: tensor<64x96xsi32>) -> tensor<64x1xsi32> {
  // CHECK: reduction_masks_negative.mlir:[[# @LINE + 1]]:8: error: a mean of si32 is not converted to D2M yet (of f32 and bf16 is)
  %0 = "ttir.mean"(%a) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<64x96xsi32>) -> tensor<64x1xsi32>
  return %0 : tensor<64x1xsi32>
}
