// RUN: not ttmlir-opt %s 2>&1 | FileCheck %s
// A dprint's format string has one {} per operand.

func.func @mismatch() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %a = arith.constant 7 : i32
  // CHECK: error: 'ttkernel.dprint' op number of format specifiers must match number of operands
  ttkernel.dprint("{} {}", %a) : (i32) -> ()
  return
}
