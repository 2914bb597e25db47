// RUN: true
// Read by mask.mlir.
func.func @mismatch(%a: tensor<2x2xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // CHECK: mask_negative.mlir:5:8: error: 'd2m.mask' op input, output, and result must have identical types
  %0 = d2m.mask %a, %b logical_shape = [2, 2] fill_value = <zero> : tensor<2x2xf32> into tensor<2x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
