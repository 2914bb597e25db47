// RUN: ttmlir-translate --mlir-to-python %s | FileCheck %s

emitpy.global @cache = #emitpy.opaque<"None">

// An else holding only an if without an else of its own is an elif; any other else stays an else.
// CHECK-LABEL: def pick(d, n):
// CHECK-NEXT:     global cache
// CHECK-NEXT:     if cache is None:
// CHECK-NEXT:         cache = d
// CHECK-NEXT:     elif n > 0:
// CHECK-NEXT:         refresh(n)
// CHECK-NEXT:     if {n}:
// CHECK-NEXT:         pass
// CHECK-NEXT:     else:
// CHECK-NEXT:         if n:
// CHECK-NEXT:             a()
// CHECK-NEXT:         else:
// CHECK-NEXT:             b()
func.func @pick(%d: !emitpy.dict {emitpy.name = "d"}, %n: !emitpy.opaque<"int"> {emitpy.name = "n"}) {
  %0 = emitpy.global_statement @cache : !emitpy.dict
  emitpy.if "{} is None" args %0 : (!emitpy.dict) {
    emitpy.assign_global @cache = %d : !emitpy.dict
  } else {
    emitpy.if "{} > 0" args %n : (!emitpy.opaque<"int">) {
      emitpy.call_opaque "refresh"(%n) : (!emitpy.opaque<"int">) -> ()
    }
  }
  emitpy.if "{{{}}}" args %n : (!emitpy.opaque<"int">) {
  } else {
    emitpy.if "{}" args %n : (!emitpy.opaque<"int">) {
      emitpy.call_opaque "a"() : () -> ()
    } else {
      emitpy.call_opaque "b"() : () -> ()
    }
  }
  return
}
