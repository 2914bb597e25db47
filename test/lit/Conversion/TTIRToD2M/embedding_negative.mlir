// RUN: not ttmlir-opt --ttcore-register-device --ttir-to-d2m --split-input-file %s 2>&1 | FileCheck %s
// What the D2M conversion of ui32 tensors does not take (their bits moved, not computed on), refused at the op.

// CHECK: embedding_negative.mlir:[[# @LINE + 2]]:8: error: a tensor of ui32 is not converted to D2M yet
func.func @ui32_arithmetic(%a: tensor<32x32xui32>) -> tensor<32x32xui32> {
  %0 = "ttir.add"(%a, %a) : (tensor<32x32xui32>, tensor<32x32xui32>) -> tensor<32x32xui32>
  return %0 : tensor<32x32xui32>
}

// -----

// CHECK: embedding_negative.mlir:[[# @LINE + 2]]:8: error: a tensor of ui32 is not converted to D2M yet
func.func @ui32_to_float(%a: tensor<32x32xui32>) -> tensor<32x32xf32> {
  %0 = "ttir.typecast"(%a) : (tensor<32x32xui32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
