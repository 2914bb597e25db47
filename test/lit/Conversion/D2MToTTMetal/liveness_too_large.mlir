// RUN: not ttmlir-opt --ttir-to-ttmetal-pipeline %s 2>&1 | FileCheck %s
// What is live at once must fit: a matmul holds all of K of its operand blocks in L1 (its B block here is 64x8
// bf16 tiles, 1 MiB, on each of the 8 cores of its 1x8 output grid), so the error is reported at the matmul.

// CHECK: liveness_too_large.mlir:[[# @LINE + 3]]:8: error: the tensors live at once in @linear need {{[0-9]+}} B of L1 per core ({{[0-9]+}} B free; a buffer of this op takes 1048576 B)
func.func @linear(%x: tensor<32x2048xbf16>, %w: tensor<2048x2048xbf16>) -> tensor<32x2048xbf16> {
  %0 = "ttir.permute"(%w) <{permutation = array<i64: 1, 0>}> : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
  %1 = "ttir.matmul"(%x, %0) : (tensor<32x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<32x2048xbf16>
  return %1 : tensor<32x2048xbf16>
}
