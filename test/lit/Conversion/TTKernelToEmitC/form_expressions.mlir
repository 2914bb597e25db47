// RUN: ttmlir-opt --form-expressions %s | FileCheck %s
// RUN: ttmlir-opt --form-expressions %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s --check-prefix=CPP
// A chain of single-use operators becomes one expression; a value used twice, a call with effects and a value
// used inside a loop keep expressions of their own.

// CHECK-LABEL: func.func @kernel_main
// CHECK: %[[T:.*]] = emitc.expression : () -> i32 {
// CHECK-NEXT: emitc.call_opaque "get_arg_val"
// CHECK-NEXT: yield
// CHECK: %[[SUM:.*]] = emitc.expression %[[T]] : (i32) -> i32 {
// CHECK-NEXT: "emitc.constant"() <{value = 2 : i32}>
// CHECK-NEXT: emitc.mul %[[T]]
// CHECK-NEXT: "emitc.constant"() <{value = 1 : i32}>
// CHECK-NEXT: emitc.add
// CHECK-NEXT: yield
// CHECK: emitc.call_opaque "cb_push_back"(%[[SUM]], %[[SUM]])
// CHECK: scf.for
// CHECK-NEXT: emitc.call_opaque "cb_pop_front"(%[[K:.*]])

// CPP: int32_t v1 = get_arg_val(0);
// CPP: cb_push_back(
func.func @kernel_main() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %t = emitc.call_opaque "get_arg_val"() {args = [0 : i32]} : () -> i32
  %two = "emitc.constant"() <{value = 2 : i32}> : () -> i32
  %one = "emitc.constant"() <{value = 1 : i32}> : () -> i32
  %m = emitc.mul %t, %two : (i32, i32) -> i32
  %s = emitc.add %m, %one : (i32, i32) -> i32
  emitc.call_opaque "cb_push_back"(%s, %s) : (i32, i32) -> ()
  %k = "emitc.constant"() <{value = 4 : i32}> : () -> i32
  %lb = arith.constant 0 : index
  %ub = arith.constant 2 : index
  %st = arith.constant 1 : index
  scf.for %i = %lb to %ub step %st {
    emitc.call_opaque "cb_pop_front"(%k) : (i32) -> ()
  }
  return
}
