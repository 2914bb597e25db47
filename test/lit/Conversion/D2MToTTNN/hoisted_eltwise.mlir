// RUN: ttmlir-opt --convert-ttnn-to-ttir %s | FileCheck %s --check-prefix=TTIR
// RUN: ttmlir-opt --convert-ttnn-to-ttir --ttir-to-ttmetal-pipeline="ttnn-mode=true enable-elementwise-fusion=true" -o %t.mlir %s
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn %t.mlir
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=TTRT
// TTNN ops marked ttnn.hoist_generic_via_d2m become TTIR ops on the same TTNN tensors, then one ttnn.generic
// of the compiler's kernels (fused: its L1 operands are its core's own shards, so one data-movement kernel, the
// compute kernel numbered next); the unmarked ops stay TTNN's.

#dram = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>
#l1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <block_sharded>, core_ranges = <[#ttnn.core_range<(3,1), (3,1)>]>>
// TTIR-LABEL: func.func @marked
// TTIR: "ttir.sigmoid"(%{{.*}}) : (tensor<64x64xbf16, #ttnn_layout1>) -> tensor<64x64xbf16, #ttnn_layout1>
// TTIR: "ttir.sqrt"
// TTIR: "ttnn.to_memory_config"
// CHECK-LABEL: func.func @marked
// CHECK: %[[L1:.*]] = "ttnn.to_memory_config"(%arg0)
// CHECK: %[[OUT:.*]] = "ttnn.empty"(%{{.*}}) <{dtype = #ttcore.supportedDataTypes<bf16>, layout = #ttnn.layout<tile>, memory_config = #ttnn.memory_config<#l1, <block_sharded>>, shape = #ttnn.shape<64x64>}>
// CHECK: "ttnn.generic"(%[[L1]], %[[OUT]])
// CHECK-SAME: #ttnn.data_movement_kernel<symbol_ref = @datamovement_kernel0, core_ranges = <[#ttnn.core_range<(3,1), (3,1)>]>, processor = riscv1, noc_index = noc0, noc_mode = dedicated_noc
// CHECK-SAME: #ttnn.compute_kernel<symbol_ref = @compute_kernel1
// CHECK-SAME: formats = [<buffer_index = 1, dtype = bf16, page_size = 2048>], buffer = #ttnn.kernel_cb_global_buffer_address_of_tensor<1>>
// CHECK-NOT: "ttnn.generic"
// CHECK: "ttnn.to_memory_config"(%[[OUT]])
// CHECK: func.func private @compute_kernel1
// CHECK: emitc.call_opaque "sigmoid_tile"
// CHECK: emitc.call_opaque "sqrt_tile"
// TTRT: {{.*}}.ttnn: PASS
func.func @marked(%arg0: tensor<64x64xbf16, #dram>) -> tensor<64x64xbf16, #dram> {
  %0 = "ttnn.to_memory_config"(%arg0) : (tensor<64x64xbf16, #dram>) -> tensor<64x64xbf16, #l1>
  %1 = "ttnn.sigmoid"(%0) {ttnn.hoist_generic_via_d2m} : (tensor<64x64xbf16, #l1>) -> tensor<64x64xbf16, #l1>
  %2 = "ttnn.sqrt"(%1) {ttnn.hoist_generic_via_d2m} : (tensor<64x64xbf16, #l1>) -> tensor<64x64xbf16, #l1>
  %3 = "ttnn.to_memory_config"(%2) : (tensor<64x64xbf16, #l1>) -> tensor<64x64xbf16, #dram>
  return %3 : tensor<64x64xbf16, #dram>
}
