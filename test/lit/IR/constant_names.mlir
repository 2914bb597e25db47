// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// arith.constant results print under MLIR's names: the value and type for integers (`%c3` for an index), `%true`
// and `%false` for i1, `%cst` otherwise; a repeated name gets a `_N` suffix; other values keep their numbers.

// CHECK-LABEL: func.func @names
// CHECK: %c3 = arith.constant 3 : index
// CHECK: %c-2_i32 = arith.constant -2 : i32
// CHECK: %true = arith.constant true
// CHECK: %cst = arith.constant 1.500000e+00 : f32
// CHECK: %c3_0 = arith.constant 3 : index
// CHECK: %0 = arith.addi %c3, %c3_0 : index
// CHECK: return %0, %c-2_i32, %true, %cst
func.func @names() -> (index, i32, i1, f32) {
  %a = arith.constant 3 : index
  %b = arith.constant -2 : i32
  %c = arith.constant true
  %d = arith.constant 1.5 : f32
  %e = arith.constant 3 : index
  %s = arith.addi %a, %e : index
  return %s, %b, %c, %d : index, i32, i1, f32
}
