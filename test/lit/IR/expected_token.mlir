// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// A token the parser expected but did not find is reported, as MLIR does, in lower case and just after the last
// token before it when the token found starts a line (past blank lines and comments); a missing attribute value
// likewise.

func.func @missing_paren() {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{expected ')'}}
  %args = ttkernel.TensorAccessorArgs(%c0, %c0
  // a comment between
  return
}

// -----

func.func @missing_value() {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{expected attribute value}}
  %args = ttkernel.TensorAccessorArgs(%c0, %c0) {foo =

  return
}

// -----

func.func @missing_comma() {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{expected ','}}
  %args = ttkernel.TensorAccessorArgs(%c0 %c0)
  return
}
