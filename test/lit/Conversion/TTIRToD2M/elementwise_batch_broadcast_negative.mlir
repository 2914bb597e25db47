// RUN: true
// Checked from elementwise_batch_broadcast.mlir: a broadcast along part of the batch and a matrix's rows at once is
// refused.

// CHECK: elementwise_batch_broadcast_negative.mlir:[[# @LINE + 2]]:8: error: 'ttir.add' broadcasts tensor<2x1x1x64xf32> along part of its batch and a matrix's rows at once
func.func @batch_and_rows(%a: tensor<2x1x1x64xf32>, %b: tensor<2x3x40x64xf32>) -> tensor<2x3x40x64xf32> {
  %0 = "ttir.add"(%a, %b) : (tensor<2x1x1x64xf32>, tensor<2x3x40x64xf32>) -> tensor<2x3x40x64xf32>
  return %0 : tensor<2x3x40x64xf32>
}
