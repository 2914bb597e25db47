// RUN: ttmlir-opt --ttcore-register-device --ttnn-rm-layout-propagation %s | FileCheck %s
// Row-major integer ids stay row-major through a typecast, a permute and the add that reads them as its first
// operand (binary kernels write their first operand's page layout); the return gets both results tilized; the
// softmax, which reads tiles only, gets its operand tilized.
// CHECK-DAG: #[[RM:.*]] = #ttnn.ttnn_layout<{{.*}}memref<32x64xf32, #dram>
// CHECK: %[[CAST:.*]] = "ttnn.typecast"(%arg0){{.*}}-> tensor<32x64xf32, #[[RM]]>
// CHECK: %[[ADD:.*]] = "ttnn.add"(%[[CAST]], %arg1){{.*}}-> tensor<32x64xf32, #[[RM]]>
// CHECK: %[[PERM:.*]] = "ttnn.permute"(%[[CAST]])
// CHECK: %[[TILED:.*]] = "ttnn.to_tensor_spec"(%[[CAST]])
// CHECK: "ttnn.softmax"(%[[TILED]])
// CHECK: %[[SUM:.*]] = "ttnn.to_tensor_spec"(%[[ADD]])
// CHECK: %[[BACK:.*]] = "ttnn.to_tensor_spec"(%[[PERM]])
// CHECK: return %[[SUM]], %[[BACK]]
#dram = #ttnn.buffer_type<dram>
#rm_i = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x64xsi32, #dram>, <interleaved>>
#tile_i = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, si32>, #dram>, <interleaved>>
#tile_f = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
module {
  func.func @forward(%ids: tensor<32x64xsi32, #rm_i> {ttcore.argument_type = #ttcore.argument_type<input>}, %x: tensor<32x64xf32, #tile_f> {ttcore.argument_type = #ttcore.argument_type<input>}) -> (tensor<32x64xf32, #tile_f>, tensor<64x32xf32, #tile_f>) {
    %0 = "ttnn.to_tensor_spec"(%ids) : (tensor<32x64xsi32, #rm_i>) -> tensor<32x64xsi32, #tile_i>
    %1 = "ttnn.typecast"(%0) : (tensor<32x64xsi32, #tile_i>) -> tensor<32x64xf32, #tile_f>
    %2 = "ttnn.add"(%1, %x) : (tensor<32x64xf32, #tile_f>, tensor<32x64xf32, #tile_f>) -> tensor<32x64xf32, #tile_f>
    %3 = "ttnn.permute"(%1) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32, #tile_f>) -> tensor<64x32xf32, #tile_f>
    %4 = "ttnn.softmax"(%1) <{dimension = 1 : si32}> : (tensor<32x64xf32, #tile_f>) -> tensor<32x64xf32, #tile_f>
    return %2, %3 : tensor<32x64xf32, #tile_f>, tensor<64x32xf32, #tile_f>
  }
}
