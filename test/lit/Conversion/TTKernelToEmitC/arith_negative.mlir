// RUN: true
// Read by arith.mlir: a signed floor division of i32 has no C++ operator to become.
func.func @signed_floor_div() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %a = ttkernel.get_compile_time_arg_val(0) : () -> i32
  %q = arith.floordivsi %a, %a : i32
  return
}
