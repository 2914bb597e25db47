// RUN: true
// Checked from argmax.mlir: argmaxes the decomposition does not take, refused at the op.

// CHECK: argmax_negative.mlir:[[# @LINE + 2]]:8: error: an argmax of si32 is not converted to D2M yet (of f32 and bf16 is)
func.func @integers(%a: tensor<32x64xsi32>) -> tensor<1x64xsi32> {
  %0 = "ttir.argmax"(%a) <{dim_arg = [0 : i32], keep_dim = true}> : (tensor<32x64xsi32>) -> tensor<1x64xsi32>
  return %0 : tensor<1x64xsi32>
}

// -----

// CHECK: argmax_negative.mlir:[[# @LINE + 2]]:8: error: an argmax over 8388608 elements is not converted to D2M yet
func.func @too_long(%a: tensor<1x8388608xf32>) -> tensor<1x1xsi32> {
  %0 = "ttir.argmax"(%a) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<1x8388608xf32>) -> tensor<1x1xsi32>
  return %0 : tensor<1x1xsi32>
}
