// RUN: not ttmlir-opt --ttcore-register-device --ttir-to-d2m %s 2>&1 | FileCheck %s
// Two dims of more than one element each are still refused.

// CHECK: reduction_unit_dims_negative.mlir:[[# @LINE + 2]]:8: error: only reductions over one dim of a tensor of rank >= 2 are converted to D2M yet
func.func @sum_two(%a: tensor<2x32x64xf32>) -> tensor<2x1x1xf32> {
  %0 = "ttir.sum"(%a) <{dim_arg = [1 : i32, 2 : i32], keep_dim = true}> : (tensor<2x32x64xf32>) -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}
