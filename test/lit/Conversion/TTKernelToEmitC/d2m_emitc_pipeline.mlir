// RUN: ttmlir-opt --d2m-emitc-pipeline %s | FileCheck %s
// The pipeline lowers the kernel to emitc, drops the arithmetic no call uses and forms expressions of the rest.

// CHECK-LABEL: func.func @reader
// CHECK-NOT: emitc.constant
// CHECK: %[[N:.*]] = emitc.expression : () -> i32 {
// CHECK-NEXT: "emitc.constant"() <{value = 4 : i32}>
// CHECK: emitc.verbatim "{{.*}}.push_back({});" args %[[N]]
// CHECK-NOT: emitc.constant
// CHECK: return
func.func @reader() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %cb = ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  %dead0 = arith.constant 3 : i32
  %dead1 = arith.muli %dead0, %dead0 : i32
  %n = arith.constant 4 : i32
  ttkernel.cb_push_back(%cb, %n) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
  return
}
