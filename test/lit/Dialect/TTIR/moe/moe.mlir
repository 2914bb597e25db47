// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC

// The sparse matmul reads its mask row-major bf16.
// CHECK-LABEL: func.func @expert_down
// CHECK: "ttnn.sparse_matmul"
// CHECK-SAME: tensor<1x1x8x4xbf16, #{{ttnn_layout[0-9]*}}>
// CHECK-SAME: -> tensor<8x4x32x32xf32
// The router writes 8 experts per token: k = 3 is padded, both results sliced back, the weights renormalized.
// CHECK-LABEL: func.func @router
// CHECK: "ttnn.topk_router_gpt"
// CHECK-SAME: <{k = 8 : i32, num_experts = 128 : i32}>
// CHECK: "ttnn.slice_static"
// CHECK-SAME: -> tensor<32x3xui16
// CHECK: "ttnn.slice_static"
// CHECK-SAME: -> tensor<32x3xbf16
// CHECK: "ttnn.sum"
// CHECK: "ttnn.divide"
// EXEC: PASS
module {
  func.func @expert_down(%a: tensor<8x4x32x64xf32>, %b: tensor<1x4x64x32xf32>, %s: tensor<1x1x8x4xf32>) -> tensor<8x4x32x32xf32> {
    %0 = "ttir.sparse_matmul"(%a, %b, %s) <{is_input_a_sparse = true, is_input_b_sparse = false}> : (tensor<8x4x32x64xf32>, tensor<1x4x64x32xf32>, tensor<1x1x8x4xf32>) -> tensor<8x4x32x32xf32>
    return %0 : tensor<8x4x32x32xf32>
  }
  func.func @router(%x: tensor<32x64xbf16>, %w: tensor<64x128xbf16>, %b: tensor<32x128xbf16>) -> (tensor<32x3xui16>, tensor<32x3xbf16>) {
    %i, %v = "ttir.topk_router_gpt"(%x, %w, %b) <{k = 3 : i32, num_experts = 128 : i32}> : (tensor<32x64xbf16>, tensor<64x128xbf16>, tensor<32x128xbf16>) -> (tensor<32x3xui16>, tensor<32x3xbf16>)
    return %i, %v : tensor<32x3xui16>, tensor<32x3xbf16>
  }
}
