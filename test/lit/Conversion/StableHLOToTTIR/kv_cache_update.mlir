// RUN: ttmlir-opt --split-input-file --stablehlo-to-ttir-pipeline %s | FileCheck %s

// Each user's token overwrites one position of the cache: an in-place update_cache with the tokens as
// [1, heads, users, dim]; the cache itself is the result.
// CHECK-LABEL: func.func @decode_step
// CHECK: %[[TOK:.*]] = "ttir.permute"(%arg2) <{permutation = array<i64: 2, 1, 0, 3>}> : (tensor<4x2x1x32xbf16>) -> tensor<1x2x4x32xbf16>
// CHECK: "ttir.update_cache"(%arg0, %[[TOK]], %arg1) <{batch_offset = 0 : i32}>
// CHECK-NOT: ttir.scatter
// CHECK: return %arg0
func.func @decode_step(%cache: tensor<4x2x16x32xbf16>, %pos: tensor<1xi64>, %tok: tensor<4x2x1x32xbf16>) -> tensor<4x2x16x32xbf16> {
  %0 = "stablehlo.scatter"(%cache, %pos, %tok) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1, 3], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2], index_vector_dim = 1>}> ({
  ^bb0(%old: tensor<bf16>, %new: tensor<bf16>):
    stablehlo.return %new : tensor<bf16>
  }) : (tensor<4x2x16x32xbf16>, tensor<1xi64>, tensor<4x2x1x32xbf16>) -> tensor<4x2x16x32xbf16>
  return %0 : tensor<4x2x16x32xbf16>
}

// -----

// The cache is read after the write: updating it in place would change what that read sees, so it stays a
// scatter into a copy.
// CHECK-LABEL: func.func @cache_read_again
// CHECK-NOT: ttir.update_cache
// CHECK: ttir.scatter
func.func @cache_read_again(%cache: tensor<4x2x16x32xbf16>, %pos: tensor<1xi64>, %tok: tensor<4x2x1x32xbf16>) -> (tensor<4x2x16x32xbf16>, tensor<4x2x16x32xbf16>) {
  %0 = "stablehlo.scatter"(%cache, %pos, %tok) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1, 3], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2], index_vector_dim = 1>}> ({
  ^bb0(%old: tensor<bf16>, %new: tensor<bf16>):
    stablehlo.return %new : tensor<bf16>
  }) : (tensor<4x2x16x32xbf16>, tensor<1xi64>, tensor<4x2x1x32xbf16>) -> tensor<4x2x16x32xbf16>
  %1 = stablehlo.add %cache, %cache : tensor<4x2x16x32xbf16>
  return %0, %1 : tensor<4x2x16x32xbf16>, tensor<4x2x16x32xbf16>
}

// -----

// Adding into the cache is no overwrite.
// CHECK-LABEL: func.func @accumulate
// CHECK-NOT: ttir.update_cache
// CHECK: ttir.scatter
func.func @accumulate(%cache: tensor<4x2x16x32xbf16>, %pos: tensor<1xi64>, %tok: tensor<4x2x1x32xbf16>) -> tensor<4x2x16x32xbf16> {
  %0 = "stablehlo.scatter"(%cache, %pos, %tok) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1, 3], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2], index_vector_dim = 1>}> ({
  ^bb0(%old: tensor<bf16>, %new: tensor<bf16>):
    %s = stablehlo.add %old, %new : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) : (tensor<4x2x16x32xbf16>, tensor<1xi64>, tensor<4x2x1x32xbf16>) -> tensor<4x2x16x32xbf16>
  return %0 : tensor<4x2x16x32xbf16>
}
