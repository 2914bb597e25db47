// RUN: not ttmlir-opt --ttnn-decompose-layouts %s 2>&1 | FileCheck %s

// A to_tensor_spec that changes nothing is an error here (canonicalization folds it away before).
#dram_tile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, <interleaved>>
func.func @same(%arg0: tensor<64x128xf32, #dram_tile>) -> tensor<64x128xf32, #dram_tile> {
  // CHECK: ttnn_decompose_layouts_redundant.mlir:7:8: error: Redundant ttnn::ToLayoutOp - no ttnn layout ops needed, this may be due to the forcing of tile/row major layouts.
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x128xf32, #dram_tile>) -> tensor<64x128xf32, #dram_tile>
  return %0 : tensor<64x128xf32, #dram_tile>
}
