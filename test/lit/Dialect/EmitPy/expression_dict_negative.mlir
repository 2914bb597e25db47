// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @no_yield(%x: !emitpy.opaque<"int">) -> !emitpy.opaque<"int"> {
  // expected-error @+1 {{'emitpy.expression' op must yield a value at termination}}
  %0 = "emitpy.expression"(%x) ({
  ^bb0(%a: !emitpy.opaque<"int">):
    %1 = emitpy.call_opaque "f"(%a) : (!emitpy.opaque<"int">) -> !emitpy.opaque<"int">
  }) : (!emitpy.opaque<"int">) -> !emitpy.opaque<"int">
  return %0 : !emitpy.opaque<"int">
}

// -----

func.func @twice(%x: !emitpy.opaque<"int">) -> !emitpy.opaque<"int"> {
  // expected-error @+1 {{'emitpy.expression' op requires exactly one use for operations with side effects}}
  %0 = emitpy.expression(%x) : (!emitpy.opaque<"int">) -> !emitpy.opaque<"int"> {
  ^bb0(%a: !emitpy.opaque<"int">):
    %1 = emitpy.call_opaque "draw"(%a) : (!emitpy.opaque<"int">) -> !emitpy.opaque<"int">
    %2 = emitpy.call_opaque "add"(%1, %1) : (!emitpy.opaque<"int">, !emitpy.opaque<"int">) -> !emitpy.opaque<"int">
    emitpy.yield %2 : !emitpy.opaque<"int">
  }
  return %0 : !emitpy.opaque<"int">
}

// -----

func.func @keyword() -> !emitpy.dict {
  // expected-error @+1 {{'emitpy.create_dict' op variable name must not be a keyword}}
  %0 = emitpy.create_dict "lambda" {literal_expr = "{}"} : () -> !emitpy.dict
  return %0 : !emitpy.dict
}

// -----

func.func @odd(%k: index) -> !emitpy.dict {
  // expected-error @+1 {{'emitpy.create_dict' op items must be alternating key-value pairs (even count required)}}
  %0 = emitpy.create_dict "d" (%k) : (index) -> !emitpy.dict
  return %0 : !emitpy.dict
}

// -----

emitpy.global @n = 0
func.func @retyped(%v: !emitpy.opaque<"ttnn.Tensor">) {
  // expected-error @+1 {{'emitpy.assign_global' op value type ('!emitpy.opaque<"ttnn.Tensor">') does not match global's type ('i64')}}
  emitpy.assign_global @n = %v : !emitpy.opaque<"ttnn.Tensor">
  return
}
