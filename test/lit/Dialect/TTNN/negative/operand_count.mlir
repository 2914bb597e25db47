// RUN: not ttmlir-opt --split-input-file %s 2>&1 | FileCheck %s
// An eltwise op given an output operand (as a DPS op would be) is refused in ODS's words; ttnn.empty takes
// its data type from its result's layout.

#dram = #ttnn.buffer_type<dram>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK: error: 'ttnn.multiply' op expected 2 operands, but found 3
func.func @multiply_into(%arg0: tensor<32x64xbf16, #layout>, %arg1: tensor<32x64xbf16, #layout>) -> tensor<32x64xbf16, #layout> {
  %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
  %1 = "ttnn.empty"(%0) <{shape = #ttnn.shape<32x64>}> : (!ttnn.device) -> tensor<32x64xbf16, #layout>
  %2 = "ttnn.multiply"(%arg0, %arg1, %1) : (tensor<32x64xbf16, #layout>, tensor<32x64xbf16, #layout>, tensor<32x64xbf16, #layout>) -> tensor<32x64xbf16, #layout>
  return %2 : tensor<32x64xbf16, #layout>
}

// -----
#dram = #ttnn.buffer_type<dram>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK: error: 'ttnn.exp' op requires a single operand
func.func @exp_into(%arg0: tensor<32x64xbf16, #layout>, %arg1: tensor<32x64xbf16, #layout>) -> tensor<32x64xbf16, #layout> {
  %0 = "ttnn.exp"(%arg0, %arg1) : (tensor<32x64xbf16, #layout>, tensor<32x64xbf16, #layout>) -> tensor<32x64xbf16, #layout>
  return %0 : tensor<32x64xbf16, #layout>
}
