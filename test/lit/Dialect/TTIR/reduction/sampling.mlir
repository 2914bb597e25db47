// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC

// The kernel samples [1, 1, users, candidates] from bf16 tiles with row-major ids and per-user parameters (k as
// u32) and writes u32 tokens [1, 1, 1, users]; the result goes back to [users] si32.
// CHECK-LABEL: func.func @next_tokens
// CHECK: "ttnn.reshape"
// CHECK-SAME: shape = [1 : i32, 1 : i32, 4 : i32, 64 : i32]
// CHECK: "ttnn.reshape"
// CHECK-SAME: shape = [1 : i32, 1 : i32, 4 : i32, 64 : i32]
// CHECK: "ttnn.sampling"
// CHECK-SAME: <{seed = 7 : ui32}>
// CHECK-SAME: tensor<4xui32
// CHECK-SAME: -> tensor<1x1x1x4xui32
// CHECK: "ttnn.reshape"
// CHECK-SAME: shape = [4 : i32]
// CHECK-SAME: -> tensor<4xsi32
// EXEC: PASS
module {
  func.func @next_tokens(%values: tensor<4x64xbf16>, %ids: tensor<4x64xi32>, %k: tensor<4xi32>, %p: tensor<4xbf16>, %temp: tensor<4xbf16>) -> tensor<4xi32> {
    %0 = "ttir.sampling"(%values, %ids, %k, %p, %temp) <{seed = 7 : ui32}> : (tensor<4x64xbf16>, tensor<4x64xi32>, tensor<4xi32>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}
