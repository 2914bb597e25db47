// RUN: true
// Read by ops.mlir (verify-diagnostics).

func.func @wrong_operand_count(%a: index) {
  // expected-error @+1 {{'ttkernel.copy_tile' op takes 3 operand(s), got 2}}
  "ttkernel.copy_tile"(%a, %a) : (index, index) -> ()
  return
}

// -----

func.func @missing_result() {
  // expected-error @+1 {{'ttkernel.get_compile_time_arg_val' op returns 1 value(s), got 0}}
  "ttkernel.get_compile_time_arg_val"() <{arg_index = 0 : i32}> : () -> ()
  return
}

// -----

func.func @startup_needs_two_or_three(%a: index) {
  // expected-error @+1 {{'ttkernel.compute_kernel_hw_startup' op takes 2 or 3 operand(s), got 1}}
  "ttkernel.compute_kernel_hw_startup"(%a) : (index) -> ()
  return
}
