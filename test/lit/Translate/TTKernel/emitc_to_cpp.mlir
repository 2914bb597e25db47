// RUN: ttmlir-translate --ttkernel-to-cpp %s | FileCheck %s
// RUN: not ttmlir-translate --ttkernel-to-cpp %S/emitc_to_cpp_bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// Kernel functions in emitc, arith and scf print as tt-metal kernel C++: includes first, a compute kernel
// inside namespace NAMESPACE with its MAIN, values named v1, v2, ..., literals written where they are used.

// CHECK: #include <cstdint>
// CHECK-NEXT: #include "api/compute/eltwise_binary.h"
// CHECK: namespace NAMESPACE {
// CHECK-NEXT: void kernel_main() {
func.func @compute_add() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  emitc.include "api/compute/eltwise_binary.h"
  // CHECK-NEXT: int32_t v1 = 0;
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %count = emitc.literal "get_arg_val<uint32_t>(0)" : i32
  // CHECK: size_t v3 = (size_t) get_arg_val<uint32_t>(0);
  %ub = arith.index_cast %count : i32 to index
  %lb = arith.constant 0 : index
  %step = arith.constant 1 : index
  // CHECK: for (size_t i1 = v4; i1 < v3; i1 += v5) {
  scf.for %i = %lb to %ub step %step {
    // CHECK-NEXT: cb_wait_front(v1, v2);
    emitc.call_opaque "cb_wait_front"(%c0, %c1) : (i32, i32) -> ()
    // CHECK-NEXT: bool v6 = i1 == v4;
    %first = arith.cmpi eq, %i, %lb : index
    // CHECK-NEXT: if (v6) {
    scf.if %first {
      // CHECK-NEXT: DPRINT("first");
      emitc.verbatim "DPRINT(\"first\");"
    }
    // CHECK-NEXT: }
    // CHECK-NEXT: add_tiles(v1, v2, 0, 0, 0);
    emitc.call_opaque "add_tiles"(%c0, %c1) {args = [0 : index, 1 : index, 0 : i32, 0 : i32, 0 : i32]} : (i32, i32) -> ()
  }
  // CHECK: return;
  return
}
// CHECK: void MAIN { kernel_main(); }
// CHECK-NEXT: }  // namespace NAMESPACE

// CHECK: void kernel_main() {
// CHECK-NEXT: int32_t v1 = 0;
// CHECK-NEXT: uint32_t v2 = get_write_ptr(v1);
// CHECK-NOT: namespace
func.func @reader() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %c0 = arith.constant 0 : i32
  %ptr = emitc.call_opaque "get_write_ptr"(%c0) : (i32) -> ui32
  return
}

// BAD: emitc_to_cpp_bad.mlir:4:8: error: 'memref.alloc' has no C++ form in a kernel
