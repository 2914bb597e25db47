// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn --program-index 1 | FileCheck %s --check-prefix=EXEC
// RUN: not ttrt run %t.ttnn --program-index 0 2>&1 | FileCheck %s --check-prefix=GPT

// moe_gpt reads row-major tokens and u16 expert ids and maps from L1 and writes its u32 routing records there;
// selective_reduce_combine keeps its operands and attributes.
// CHECK-LABEL: func.func @gpt
// CHECK: "ttnn.moe_gpt"
// CHECK-SAME: cluster_axis = 0 : ui32, hidden_size = 2880 : ui32, output_height_shard_dim = 4 : ui32, output_width_shard_dim = 3 : ui32
// CHECK-SAME: (tensor<128x2880xbf16, #[[L1:ttnn_layout[0-9]*]]>, tensor<128x4xui16, #{{ttnn_layout[0-9]*}}>
// CHECK-SAME: -> (tensor<1x16xui32, #{{ttnn_layout[0-9]*}}>, tensor<1x512xui32
// CHECK-LABEL: func.func @combine
// CHECK: "ttnn.selective_reduce_combine"
// CHECK-SAME: <{batch_size = 8 : ui32, experts = 4 : ui32, hidden_size = 96 : ui32, select_experts_k = 2 : ui32, seq_size = 1 : ui32}>
// CHECK-SAME: -> tensor<2x8x96xbf16
// EXEC: PASS
// moe_gpt's packed weights and staging results are tt-metal's per-core layouts: the simulator says it cannot run it.
// GPT: 'ttnn.moe_gpt' {{.*}}no kernel for this op in the simulator
module {
  func.func @gpt(%input: tensor<128x2880xbf16>, %indices: tensor<128x4xui16>, %scores: tensor<128x4xbf16>, %mapping: tensor<1x16xui16>, %w0w1: tensor<12x1x4x4x2880x128xbf16>, %w2: tensor<12x1x4x2x2880x128xbf16>) -> (tensor<1x16xui32>, tensor<1x512xui32>) {
    %0, %1, %2, %3, %4 = "ttir.moe_gpt"(%input, %indices, %scores, %mapping, %w0w1, %w2) <{cluster_axis = 0 : ui32}> : (tensor<128x2880xbf16>, tensor<128x4xui16>, tensor<128x4xbf16>, tensor<1x16xui16>, tensor<12x1x4x4x2880x128xbf16>, tensor<12x1x4x2x2880x128xbf16>) -> (tensor<1x16xui32>, tensor<1x512xui32>, tensor<4x129xui32>, tensor<12x2x32x2880xbf16>, tensor<12x2x32x2880xbf16>)
    return %0, %1 : tensor<1x16xui32>, tensor<1x512xui32>
  }
  func.func @combine(%dense: tensor<3x4x4x2x32xbf16>, %records: tensor<9x12xi32>, %maps: tensor<4x36xi32>, %counts: tensor<1x4xi32>) -> tensor<2x8x96xbf16> {
    %0 = "ttir.selective_reduce_combine"(%dense, %records, %maps, %counts) <{hidden_size = 96 : ui32, batch_size = 8 : ui32, seq_size = 1 : ui32, select_experts_k = 2 : ui32, experts = 4 : ui32}> : (tensor<3x4x4x2x32xbf16>, tensor<9x12xi32>, tensor<4x36xi32>, tensor<1x4xi32>) -> tensor<2x8x96xbf16>
    return %0 : tensor<2x8x96xbf16>
  }
}
