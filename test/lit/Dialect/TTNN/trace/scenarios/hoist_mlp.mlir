// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="enable-trace=true" -o %t.mlir %s
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn %t.mlir
// RUN: ttrt run %t.ttnn --loops 3 --check-memory-leak --artifact-dir %t.artifacts --result-file %t.json
// RUN: FileCheck %s --check-prefix=RESULT --input-file=%t.json
// The whole body of @mlp moves into a trace: the weight is a device-resident slot, the activation is written
// from the host into a slot of its own on every call, and the ones tensor built mid-graph is a const-eval result
// (made once) the trace reads as a constant.

// CHECK-LABEL: func.func private @trace_0_mlp
// CHECK-SAME: %arg0: tensor<64x32xbf16, #{{.*}}> {ttcore.argument_type = #ttcore.argument_type<parameter>}
// CHECK-SAME: %arg1: tensor<32x32xbf16, #{{.*}}> {ttcore.argument_type = #ttcore.argument_type<constant>}
// CHECK-SAME: %arg2: tensor<32x64xbf16
// CHECK-SAME: %arg3: tensor<32x32xbf16
// CHECK-SAME: attributes {tt.function_type = "trace_main"}
// CHECK: %[[MM:.*]] = "ttnn.matmul"(%arg2, %arg0)
// CHECK: "ttnn.add"(%[[MM]], %arg1)
// CHECK: %[[OUT:.*]] = "ttnn.relu"
// CHECK: "ttnn.copy"(%[[OUT]], %arg3)
// CHECK: return{{$}}

// CHECK-LABEL: func.func private @allocate_slots_trace_0_mlp
// CHECK-COUNT-2: "ttnn.empty"
// CHECK: return %arg0, %arg1,

// CHECK-LABEL: func.func private @run_and_capture_trace_0_mlp
// CHECK-SAME: -> tensor<ui32, #ttnn.trace_id>
// CHECK: "ttnn.write_tensor"(%arg0, %arg3) <{blocking = false, cq_id = 0 : ui32}>
// CHECK-NOT: "ttnn.write_tensor"
// CHECK: call @trace_0_mlp(%arg1, %arg2, %arg3, %arg4)
// CHECK: %[[ID:.*]] = "ttnn.begin_trace_capture"
// CHECK: call @trace_0_mlp(%arg1, %arg2, %arg3, %arg4)
// CHECK: "ttnn.end_trace_capture"(%{{.*}}, %[[ID]])
// CHECK: "ttnn.execute_trace"(%{{.*}}, %[[ID]])
// CHECK: return %[[ID]]

// CHECK-LABEL: func.func private @execute_trace_0_mlp(%arg0: tensor<ui32, #ttnn.trace_id>)
// CHECK: "ttnn.execute_trace"

// CHECK-LABEL: func.func @mlp(
// CHECK: %[[ONES:.*]] = ttcore.load_cached(@mlp_const_eval_0, [])
// CHECK: "ttnn.capture_or_execute_trace"(%{{.*}}, %arg1, %[[ONES]], %arg0) <{allocate_slots_callee = @allocate_slots_trace_0_mlp, capture_callee = @run_and_capture_trace_0_mlp, execute_callee = @execute_trace_0_mlp, operandSegmentSizes = array<i32: 1, 3, 0>}>
// CHECK-NOT: "ttnn.matmul"

// RESULT: "result": "pass"
// RESULT: "loop_2"
func.func @mlp(%x: tensor<32x64xbf16>, %w: tensor<64x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x32xbf16> {
  %0 = "ttir.matmul"(%x, %w) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttir.ones"() <{shape = array<i32: 32, 32>}> : () -> tensor<32x32xbf16>
  %2 = "ttir.add"(%0, %1) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %3 = "ttir.relu"(%2) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %3 : tensor<32x32xbf16>
}
