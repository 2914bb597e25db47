// RUN: true
// Checked from elementwise_batch_broadcast.mlir: a broadcast along the batch and a matrix's rows at once is refused.

// CHECK: elementwise_batch_broadcast_negative.mlir:[[# @LINE + 2]]:8: error: 'ttir.add' broadcasts tensor<1x1x64xf32> along a batch dim and a matrix's rows at once
func.func @batch_and_rows(%a: tensor<1x1x64xf32>, %b: tensor<3x40x64xf32>) -> tensor<3x40x64xf32> {
  %0 = "ttir.add"(%a, %b) : (tensor<1x1x64xf32>, tensor<3x40x64xf32>) -> tensor<3x40x64xf32>
  return %0 : tensor<3x40x64xf32>
}
