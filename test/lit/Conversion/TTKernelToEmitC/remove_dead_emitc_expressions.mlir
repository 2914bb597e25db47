// RUN: ttmlir-opt --remove-dead-emitc-expressions %s | FileCheck %s
// Unused effect-free C expressions go, and what only they used; write-only variables go with their assigns;
// calls, opaque constants and read variables stay.

// CHECK-LABEL: func.func @dead_arith
// CHECK-NEXT: return
func.func @dead_arith(%a: i32) {
  %0 = "emitc.constant"() <{value = 3 : i32}> : () -> i32
  %1 = emitc.mul %a, %0 : (i32, i32) -> i32
  %2 = emitc.sub %1, %a : (i32, i32) -> i32
  %3 = emitc.cast %2 : i32 to i64
  return
}

// CHECK-LABEL: func.func @write_only_variable
// CHECK-NEXT: %[[C:.*]] = emitc.call_opaque "next"()
// CHECK-NEXT: return
func.func @write_only_variable() {
  %v = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> !emitc.lvalue<i32>
  %0 = emitc.call_opaque "next"() : () -> i32
  %1 = "emitc.constant"() <{value = 1 : i32}> : () -> i32
  %2 = emitc.add %0, %1 : (i32, i32) -> i32
  emitc.assign %2 : i32 to %v : !emitc.lvalue<i32>
  return
}

// CHECK-LABEL: func.func @kept
// CHECK: "emitc.constant"() <{value = #emitc.opaque<"SOME_MACRO">}>
// CHECK: "emitc.variable"
// CHECK: emitc.load
// CHECK: emitc.expression
// CHECK: emitc.call_opaque "side_effect"
// CHECK: return
func.func @kept() -> i32 {
  %0 = "emitc.constant"() <{value = #emitc.opaque<"SOME_MACRO">}> : () -> !emitc.opaque<"int">
  %v = "emitc.variable"() <{value = 7 : i32}> : () -> !emitc.lvalue<i32>
  %1 = emitc.load %v : !emitc.lvalue<i32>
  %2 = emitc.expression : () -> i32 {
    %3 = emitc.call_opaque "side_effect"() : () -> i32
    yield %3 : i32
  }
  return %1 : i32
}
