// RUN: ttmlir-translate --ttkernel-to-cpp %s | FileCheck %s
// A loop or if that yields values prints with a variable per value, as MLIR's scf-to-emitc makes them: declared
// before it (a loop's from its initial values), assigned by each yield (all yielded values read before any is
// assigned, so a swap is a swap), and read after it. arith.select is C++'s conditional operator.

// CHECK-LABEL: void kernel_main() {
func.func @dm() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // CHECK: size_t [[A:v[0-9]+]] = [[ZERO:v[0-9]+]];
  // CHECK-NEXT: size_t [[B:v[0-9]+]] = [[ONE:v[0-9]+]];
  // CHECK-NEXT: for (size_t i1 = [[ZERO]]; i1 < {{v[0-9]+}}; i1 += [[ONE]]) {
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %c0, %b = %c1) -> (index, index) {
    // CHECK-NEXT: bool [[EVEN:v[0-9]+]] = [[A]] == [[ZERO]];
    %even = arith.cmpi eq, %a, %c0 : index
    // CHECK-NEXT: size_t [[PICK:v[0-9]+]] = [[EVEN]] ? i1 : [[B]];
    %pick = arith.select %even, %i, %b : index
    // CHECK-NEXT: size_t [[T:v[0-9]+]];
    // CHECK-NEXT: if ([[EVEN]]) {
    %t = scf.if %even -> (index) {
      // CHECK-NEXT: [[T]] = [[PICK]];
      scf.yield %pick : index
    } else {
      // CHECK-NEXT: } else {
      // CHECK-NEXT: [[T]] = [[A]];
      scf.yield %a : index
    }
    // CHECK-NEXT: }
    // CHECK-NEXT: size_t [[Y0:v[0-9]+]] = [[B]];
    // CHECK-NEXT: size_t [[Y1:v[0-9]+]] = [[T]];
    // CHECK-NEXT: [[A]] = [[Y0]];
    // CHECK-NEXT: [[B]] = [[Y1]];
    scf.yield %b, %t : index, index
  }
  // CHECK-NEXT: }
  // CHECK-NEXT: DPRINT << [[B]];
  emitc.verbatim "DPRINT << {};" args %r#1 : index
  return
}
