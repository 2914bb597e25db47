// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="enable-cpu-hoisted-const-eval=false" -o %t.mlir %s
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn %t.mlir
// RUN: ttrt run %t.ttnn --loops 2 --check-memory-leak | FileCheck %s --check-prefix=EXEC
// Const-eval is on by default. A weight only const-eval reads arrives in host memory (row-major) and its
// const-eval function moves it to the device; a weight the forward function also reads stays on the device.

// CHECK-LABEL: func.func private @forward_const_eval_0
// CHECK-SAME: %arg0: tensor<32x64xbf16, #[[HOST:[^>]*]]>
// CHECK: "ttnn.to_device"(%arg0,
// CHECK: "ttnn.to_layout"
// CHECK: "ttnn.permute"
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %arg1: tensor<32x64xbf16, #[[HOST]]>
// CHECK-SAME: %arg2: tensor<32x32xbf16, #[[DEVICE:[^>]*]]>
// CHECK: ttcore.load_cached(@forward_const_eval_0, [%arg1])
// CHECK: "ttnn.add"({{.*}}, %arg2)
// EXEC: PASS
func.func @forward(%x: tensor<32x64xbf16>, %w: tensor<32x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                   %b: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x32xbf16> {
  %wt = "ttir.permute"(%w) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xbf16>) -> tensor<64x32xbf16>
  %0 = "ttir.matmul"(%x, %wt) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttir.add"(%0, %b) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %1 : tensor<32x32xbf16>
}
