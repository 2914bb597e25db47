// RUN: ttmlir-translate --mlir-to-python %s | FileCheck %s

// An inline expression is written where its value is used; names follow upstream's emitter: `inputs` for an
// argument, `_N` appended to a name already taken, `var_N` for results.
// CHECK-LABEL: def combine(inputs, inputs_0):
// CHECK-NEXT:     var_1 = first(inputs)
// CHECK-NEXT:     return merge(scale(var_1, 2), inputs_0[0])
func.func @combine(%x: !emitpy.opaque<"int">, %l: !emitpy.opaque<"list">) -> !emitpy.opaque<"int"> {
  %f = emitpy.call_opaque "first"(%x) : (!emitpy.opaque<"int">) -> !emitpy.opaque<"int">
  %0 = emitpy.expression(%f, %l) : (!emitpy.opaque<"int">, !emitpy.opaque<"list">) -> !emitpy.opaque<"int"> {
  ^bb0(%a: !emitpy.opaque<"int">, %b: !emitpy.opaque<"list">):
    %c = emitpy.literal "2" : index
    %i = emitpy.literal "0" : index
    %1 = emitpy.call_opaque "scale"(%a, %c) : (!emitpy.opaque<"int">, index) -> !emitpy.opaque<"int">
    %2 = emitpy.subscript %b[%i] : (!emitpy.opaque<"list">, index) -> !emitpy.opaque<"int">
    %3 = emitpy.call_opaque "merge"(%1, %2) : (!emitpy.opaque<"int">, !emitpy.opaque<"int">) -> !emitpy.opaque<"int">
    emitpy.yield %3 : !emitpy.opaque<"int">
  }
  return %0 : !emitpy.opaque<"int">
}

// A dictionary is named by its op; an expression kept out of line gets a variable.
// CHECK-LABEL: def table(key, inputs):
// CHECK-NEXT:     cache = {key: inputs}
// CHECK-NEXT:     var_0 = cache[key]
// CHECK-NEXT:     var_1 = var_0
// CHECK-NEXT:     return var_1
func.func @table(%k: !emitpy.str {emitpy.name = "key"}, %v: !emitpy.opaque<"ttnn.Tensor">) -> !emitpy.opaque<"ttnn.Tensor"> {
  %d = emitpy.create_dict "cache" (%k, %v) : (!emitpy.str, !emitpy.opaque<"ttnn.Tensor">) -> !emitpy.dict
  %0 = emitpy.expression(%d, %k) {do_not_inline} : (!emitpy.dict, !emitpy.str) -> !emitpy.opaque<"ttnn.Tensor"> {
  ^bb0(%a: !emitpy.dict, %b: !emitpy.str):
    %1 = emitpy.subscript %a[%b] : (!emitpy.dict, !emitpy.str) -> !emitpy.opaque<"ttnn.Tensor">
    emitpy.yield %1 : !emitpy.opaque<"ttnn.Tensor">
  }
  return %0 : !emitpy.opaque<"ttnn.Tensor">
}
