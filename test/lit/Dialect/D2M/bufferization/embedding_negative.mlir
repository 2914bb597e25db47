// RUN: true
// Checked from embedding.mlir: d2m.embedding's verifier.

// CHECK: error: 'd2m.embedding' op numIndices must be the number of elements of indicesShape
func.func @count(%i: tensor<2x3xsi32>, %w: tensor<16x8xf32>, %o: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %0 = d2m.embedding %i, %w, %o<5, 8> {indicesShape = array<i64: 2, 3>} : tensor<2x3xsi32>, tensor<16x8xf32>, tensor<6x8xf32> -> tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

// CHECK: error: 'd2m.embedding' op result type must match the output operand's type
func.func @result(%i: tensor<2x3xsi32>, %w: tensor<16x8xf32>, %o: tensor<6x8xf32>) -> tensor<6x8xbf16> {
  %0 = d2m.embedding %i, %w, %o<6, 8> {indicesShape = array<i64: 2, 3>} : tensor<2x3xsi32>, tensor<16x8xf32>, tensor<6x8xf32> -> tensor<6x8xbf16>
  return %0 : tensor<6x8xbf16>
}
