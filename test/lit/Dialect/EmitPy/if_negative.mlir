// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @empty(%d: !emitpy.dict) {
  // expected-error @+1 {{'emitpy.if' op condition string must not be empty}}
  emitpy.if "" args %d : (!emitpy.dict) {
  }
  return
}

// -----

func.func @count(%d: !emitpy.dict) {
  // expected-error @+1 {{'emitpy.if' op requires operands for each placeholder in the condition string}}
  emitpy.if "{} or {}" args %d : (!emitpy.dict) {
  }
  return
}

// -----

func.func @brace(%d: !emitpy.dict) {
  // expected-error @+1 {{'emitpy.if' op expected '}' after unescaped '{'}}
  emitpy.if "{d" args %d : (!emitpy.dict) {
  }
  return
}
