// RUN: ttmlir-opt --split-input-file %s | FileCheck %s
// RUN: ttmlir-opt --split-input-file %s | ttmlir-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @guard
// CHECK: emitpy.if "{} is None and {}" args %arg0, %arg1 : (!emitpy.dict, !emitpy.opaque<"bool">) {
// CHECK-NEXT: emitpy.call_opaque "fill"(%arg0)
// CHECK-NEXT: } else {
// CHECK-NEXT: emitpy.if "True" {
func.func @guard(%d: !emitpy.dict, %flag: !emitpy.opaque<"bool">) {
  emitpy.if "{} is None and {}" args %d, %flag : (!emitpy.dict, !emitpy.opaque<"bool">) {
    emitpy.call_opaque "fill"(%d) : (!emitpy.dict) -> ()
  } else {
    emitpy.if "True" {
      emitpy.call_opaque "skip"() : () -> ()
    }
  }
  return
}
