// RUN: not ttmlir-opt --ttir-to-ttmetal-pipeline %s 2>&1 | FileCheck %s
// What is live at once must fit. The matmul itself streams B's K blocks, and B on its 1x8 grid (64x8 bf16 tiles,
// 1 MiB a core) lives in DRAM; but the copy regridding the permuted weight into that layout for the matmul moves
// whole 1 MiB shards through L1 CBs (copies are not streamed), so the error is reported at the matmul it serves.

// CHECK: liveness_too_large.mlir:[[# @LINE + 3]]:8: error: the tensors live at once in @linear need {{[0-9]+}} B of L1 per core ({{[0-9]+}} B free; a buffer of this op takes 1048576 B)
func.func @linear(%x: tensor<32x2048xbf16>, %w: tensor<2048x2048xbf16>) -> tensor<32x2048xbf16> {
  %0 = "ttir.permute"(%w) <{permutation = array<i64: 1, 0>}> : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
  %1 = "ttir.matmul"(%x, %0) : (tensor<32x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<32x2048xbf16>
  return %1 : tensor<32x2048xbf16>
}
