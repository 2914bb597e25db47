// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% mesh-shape=1,2" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC

// Expert ids and marks travel as row-major u16, tokens as row-major bf16; each op keeps its attributes.
// CHECK-LABEL: func.func @exchange
// CHECK: "ttnn.typecast"
// CHECK-SAME: -> tensor<1x1x16x2xui16
// CHECK: %dispatched, %metadata = "ttnn.all_to_all_dispatch"
// CHECK-SAME: <{cluster_axis = 1 : i64, num_devices = 2 : i64}>
// CHECK-SAME: -> (tensor<1x2x16x64xbf16, #{{ttnn_layout[0-9]*}}>, tensor<1x2x16x2xui16, #{{ttnn_layout[0-9]*}}>)
// CHECK: "ttnn.all_to_all_combine"
// CHECK-SAME: num_experts_per_tok = 2 : i64, output_shard_dim = 1 : i64
// CHECK-SAME: -> tensor<2x1x16x64xbf16
// The mapping reaches TTNN as [D, E]; no persistent buffers are bound.
// CHECK-LABEL: func.func @dispatch_with_scores
// CHECK: "ttnn.reshape"
// CHECK-SAME: -> tensor<2x4xsi32
// CHECK: "ttnn.all_to_all_dispatch_metadata"
// CHECK-SAME: operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>
// CHECK-SAME: -> (tensor<1x32x64xbf16, #{{ttnn_layout[0-9]*}}>, tensor<1x32x2xui16, #{{ttnn_layout[0-9]*}}>, tensor<1x32x2xbf16
// CHECK-LABEL: func.func @remap
// CHECK: %mapping, %reduced = "ttnn.moe_expert_token_remap"
// CHECK-SAME: <{reduction_size = 8 : i64}>
// CHECK-SAME: -> (tensor<1x1x16x2xbf16, #{{ttnn_layout[0-9]*}}>, tensor<1x1x2x2xui16, #{{ttnn_layout[0-9]*}}>)
// EXEC: PASS
module {
  func.func @exchange(%x: tensor<1x1x16x64xbf16>, %idx: tensor<1x1x16x2xi32>, %map: tensor<1x1x4x2xi32>) -> tensor<2x1x16x64xbf16> {
    %d, %m = "ttir.all_to_all_dispatch"(%x, %idx, %map) <{cluster_axis = 1 : i64, num_devices = 2 : i64}> : (tensor<1x1x16x64xbf16>, tensor<1x1x16x2xi32>, tensor<1x1x4x2xi32>) -> (tensor<1x2x16x64xbf16>, tensor<1x2x16x2xi32>)
    %e = "ttir.concat"(%d, %d) <{dim = 0 : si32}> : (tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>) -> tensor<2x2x16x64xbf16>
    %0 = "ttir.all_to_all_combine"(%e, %m, %map) <{cluster_axis = 1 : i64, num_devices = 2 : i64, num_experts_per_tok = 2 : i64, output_shard_dim = 1 : i64}> : (tensor<2x2x16x64xbf16>, tensor<1x2x16x2xi32>, tensor<1x1x4x2xi32>) -> tensor<2x1x16x64xbf16>
    return %0 : tensor<2x1x16x64xbf16>
  }
  func.func @dispatch_with_scores(%x: tensor<1x1x16x64xbf16>, %idx: tensor<1x1x16x2xi32>, %s: tensor<1x1x16x2xbf16>, %map: tensor<1x1x2x4xi32>) -> (tensor<1x32x64xbf16>, tensor<1x32x2xi32>, tensor<1x32x2xbf16>) {
    %0, %1, %2 = "ttir.all_to_all_dispatch_metadata"(%x, %idx, %s, %map) <{cluster_axis = 1 : i64, num_devices = 2 : i64}> : (tensor<1x1x16x64xbf16>, tensor<1x1x16x2xi32>, tensor<1x1x16x2xbf16>, tensor<1x1x2x4xi32>) -> (tensor<1x32x64xbf16>, tensor<1x32x2xi32>, tensor<1x32x2xbf16>)
    return %0, %1, %2 : tensor<1x32x64xbf16>, tensor<1x32x2xi32>, tensor<1x32x2xbf16>
  }
  func.func @remap(%scores: tensor<1x1x16x4xbf16>, %map: tensor<1x1x4x2xi32>, %meta: tensor<1x1x16x2xi32>) -> (tensor<1x1x16x2xbf16>, tensor<1x1x2x2xbf16>) {
    %0, %1 = "ttir.moe_expert_token_remap"(%scores, %map, %meta) <{reduction_size = 8 : i64}> : (tensor<1x1x16x4xbf16>, tensor<1x1x4x2xi32>, tensor<1x1x16x2xi32>) -> (tensor<1x1x16x2xbf16>, tensor<1x1x2x2xbf16>)
    return %0, %1 : tensor<1x1x16x2xbf16>, tensor<1x1x2x2xbf16>
  }
}
