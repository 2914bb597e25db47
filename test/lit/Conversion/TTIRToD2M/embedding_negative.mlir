// RUN: not ttmlir-opt --ttcore-register-device --ttir-to-d2m --split-input-file %s 2>&1 | FileCheck %s
// What the D2M conversion of ui32 tensors and of gathers does not take, refused at the op.

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

// -----

// A gather of parts of rows is not an embedding.
// CHECK: embedding_negative.mlir:[[# @LINE + 2]]:8: error: 'ttir.gather' is not converted to D2M yet
func.func @gather_part_rows(%t: tensor<169x3xbf16>, %i: tensor<40x1xsi32>) -> tensor<40x2xbf16> {
  %0 = "ttir.gather"(%t, %i) <{collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : si64, indices_are_sorted = false, offset_dims = array<i64: 1>, operand_batching_dims = array<i64>, slice_sizes = array<i64: 1, 2>, start_index_map = array<i64: 0>, start_indices_batching_dims = array<i64>}> : (tensor<169x3xbf16>, tensor<40x1xsi32>) -> tensor<40x2xbf16>
  return %0 : tensor<40x2xbf16>
}
