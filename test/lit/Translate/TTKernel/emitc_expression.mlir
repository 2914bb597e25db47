// RUN: ttmlir-translate --ttkernel-to-cpp %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s --check-prefix=IR
// An emitc.expression's ops become statements and its result the value it yields.

// IR: emitc.expression %{{.*}} : (i32) -> i32 {
// IR: emitc.yield %{{.*}} : i32
// IR: emitc.expression  noinline : () -> i32 {

// CHECK: void kernel_main() {
// CHECK-NEXT: int32_t v1 = 4;
// CHECK-NEXT: int32_t v2 = 2;
// CHECK-NEXT: int32_t v3 = v1 * v2;
// CHECK-NEXT: cb_reserve_back(0, v3);
// CHECK-NEXT: int32_t v4 = 1;
// CHECK-NEXT: cb_push_back(0, v4);
func.func @reader() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %four = "emitc.constant"() <{value = 4 : i32}> : () -> i32
  %0 = emitc.expression %four : (i32) -> i32 {
    %2 = "emitc.constant"() <{value = 2 : i32}> : () -> i32
    %3 = emitc.mul %four, %2 : (i32, i32) -> i32
    yield %3 : i32
  }
  emitc.verbatim "cb_reserve_back(0, {});" args %0 : i32
  %1 = emitc.expression noinline : () -> i32 {
    %4 = "emitc.constant"() <{value = 1 : i32}> : () -> i32
    yield %4 : i32
  }
  emitc.verbatim "cb_push_back(0, {});" args %1 : i32
  return
}
