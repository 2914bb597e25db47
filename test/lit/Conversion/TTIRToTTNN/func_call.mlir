// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section op_stats --result-file %t.json %t.ttnn | FileCheck %s --check-prefix=STATS
// RUN: ttrt run --check-memory-leak --result-file %t.json --artifact-dir %t.artifacts %t.ttnn | FileCheck %s --check-prefix=EXEC

// A private function takes and returns device tensors: its callers move no data to call it.
// CHECK-LABEL: func.func private @gelu_block
// CHECK-SAME: (%arg0: tensor<32x64xf32, #[[DEV:ttnn_layout[0-9]*]]>, %arg1: tensor<32x64xf32, #[[DEV]]>) -> tensor<32x64xf32, #[[DEV]]>
// CHECK-NOT: "ttnn.to_device"
// CHECK: "ttnn.add"
// CHECK: "ttnn.gelu"
// CHECK: return
// CHECK-LABEL: func.func @main
// CHECK-NOT: "ttnn.to_layout"
// CHECK: %[[R0:.*]] = call @gelu_block(%arg0, %[[Y:arg1]]) : (tensor<32x64xf32, #[[DEV]]>, tensor<32x64xf32, #[[DEV]]>) -> tensor<32x64xf32, #[[DEV]]>
// CHECK: %[[R1:.*]] = call @gelu_block(%[[R0]], %[[Y]])
// CHECK: return %[[R1]]
// STATS: "program": "gelu_block"
// STATS: "ttnn.gelu": 1
// STATS: "program": "main"
// STATS: "func.call": 2
// EXEC: PASS
module {
  func.func private @gelu_block(%a: tensor<32x64xf32>, %b: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.add"(%a, %b) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %1 = "ttir.gelu"(%0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %1 : tensor<32x64xf32>
  }
  func.func @main(%x: tensor<32x64xf32>, %y: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = call @gelu_block(%x, %y) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %1 = call @gelu_block(%0, %y) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    return %1 : tensor<32x64xf32>
  }
}
