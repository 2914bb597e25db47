// RUN: ttmlir-opt --split-input-file %s | FileCheck %s
// RUN: ttmlir-opt --split-input-file %s | ttmlir-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @scaled
// CHECK: emitpy.expression(%arg0) {do_not_inline} : (!emitpy.opaque<"float">) -> !emitpy.opaque<"float"> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: !emitpy.opaque<"float">):
// CHECK: emitpy.yield %{{.*}} : !emitpy.opaque<"float">
func.func @scaled(%x: !emitpy.opaque<"float">) -> !emitpy.opaque<"float"> {
  %0 = emitpy.expression(%x) {do_not_inline} : (!emitpy.opaque<"float">) -> !emitpy.opaque<"float"> {
  ^bb0(%a: !emitpy.opaque<"float">):
    %c = emitpy.literal "2" : index
    %1 = emitpy.call_opaque "scale"(%a, %c) : (!emitpy.opaque<"float">, index) -> !emitpy.opaque<"float">
    emitpy.yield %1 : !emitpy.opaque<"float">
  }
  return %0 : !emitpy.opaque<"float">
}

// -----

// CHECK: emitpy.global @g = #emitpy.opaque<"{}"> : !emitpy.dict
// CHECK-LABEL: func.func @dicts
// CHECK: emitpy.create_dict "empty" {literal_expr = "{}"} : () -> !emitpy.dict
// CHECK: emitpy.create_dict "by_name"(%arg0, %arg1) : (!emitpy.str, !emitpy.opaque<"ttnn.Tensor">) -> !emitpy.dict<!emitpy.str, !emitpy.opaque<"ttnn.Tensor">>
emitpy.global @g = #emitpy.opaque<"{}"> : !emitpy.dict
func.func @dicts(%k: !emitpy.str, %v: !emitpy.opaque<"ttnn.Tensor">) -> !emitpy.dict {
  %0 = emitpy.create_dict "empty" {literal_expr = "{}"} : () -> !emitpy.dict
  %1 = emitpy.create_dict "by_name" (%k, %v) : (!emitpy.str, !emitpy.opaque<"ttnn.Tensor">) -> !emitpy.dict<!emitpy.str, !emitpy.opaque<"ttnn.Tensor">>
  return %0 : !emitpy.dict
}
