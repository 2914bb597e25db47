// RUN: ttmlir-opt --ttcore-wrap-device-module --const-eval-hoist-transform --cpu-hoist-const-eval %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="enable-const-eval=true enable-cpu-hoisted-const-eval=true" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run --loops 2 %t.ttnn | FileCheck %s --check-prefix=EXEC
// RUN: ttmlir-opt --ttir-to-emitpy-pipeline="enable-const-eval=true enable-cpu-hoisted-const-eval=true" %s | ttmlir-translate --mlir-to-python | FileCheck %s --check-prefix=EMITPY

// The const-eval function's ops run on the host in f32: one CPU function, called between casts; the zeros it
// also returns as they are stays a device op (and is the CPU function's argument).
// CHECK: ttcore.device_module {
// CHECK-LABEL: func.func private @forward_const_eval_0(
// CHECK-SAME: -> (tensor<32x32xbf16>, tensor<32x32xbf16>)
// CHECK: %[[Z:.*]] = "ttir.zeros"
// CHECK: %[[R:.*]] = call @[[FN:cpu_hoisted_const_eval_[0-9a-f]+]]({{.*}}) {ttir.cpu_hoist_call}
// CHECK: %[[B:.*]] = ttir.to_layout %[[R]], %{{.*}} : tensor<32x32xf32> into tensor<32x32xbf16> -> tensor<32x32xbf16>
// CHECK: return %[[Z]], %[[B]]
// CHECK-LABEL: func.func @forward(
// CHECK: ttcore.load_cached(@forward_const_eval_0, [%arg1, %arg2])
// CHECK: func.func private @[[FN]]({{.*}}) -> tensor<32x32xf32> attributes {tt.function_type = "forward_cpu_declaration"}
// CHECK: ttcore.cpu_module {
// CHECK: func.func @[[FN]](%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xf32>, %arg2: tensor<32x32xf32>)
// CHECK-NEXT: "ttir.multiply"
// CHECK-NEXT: "ttir.maximum"
// CHECK-NEXT: "ttir.exp"
// CHECK-NEXT: return
// EXEC: PASS
// EMITPY-LABEL: # File: "consteval"
// EMITPY: import ttir_cpu
// EMITPY: def [[HOISTED:cpu_hoisted_const_eval_[0-9a-f]+]](
// EMITPY-NEXT: def [[HOISTED]]_impl(
// EMITPY-NEXT: ttir_cpu.multiply(
// EMITPY: def forward_const_eval_0(
// EMITPY: cpu_hoisted_const_eval_{{.*}}(
func.func @forward(%x: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<input>},
                   %w: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                   %c: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<32x32xbf16> {
  %z = "ttir.zeros"() <{shape = array<i32: 32, 32>}> : () -> tensor<32x32xbf16>
  %0 = "ttir.multiply"(%w, %c) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttir.maximum"(%0, %z) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %2 = "ttir.exp"(%1) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %3 = "ttir.add"(%x, %2) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %4 = "ttir.maximum"(%3, %z) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %4 : tensor<32x32xbf16>
}
