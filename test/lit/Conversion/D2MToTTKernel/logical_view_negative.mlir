// RUN: not ttmlir-opt --ttcore-register-device --d2m-fe-pipeline --d2m-be-pipeline %s 2>&1 | FileCheck %s
// A reduction over two dims of a 3-d tensor reduces its rows, then folds each matrix's column into a row: a reshape
// moving elements between tiles, a view of logical indices that --ttir-to-ttmetal-pipeline's gather programs copy.
// The staged pipelines refuse it, located, rather than compose it with the device views.

func.func @two_dims(%a: tensor<2x40x96xf32>) -> tensor<2x1x1xf32> {
  // CHECK: logical_view_negative.mlir:[[# @LINE + 1]]:8: error: a view of logical indices ({{.*}}: a reshape or permute moving elements between tiles) is copied by --ttir-to-ttmetal-pipeline's gather programs, not lowered by the staged D2M pipelines yet
  %0 = "ttir.sum"(%a) <{dim_arg = [1 : i32, 2 : i32], keep_dim = true}> : (tensor<2x40x96xf32>) -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}
