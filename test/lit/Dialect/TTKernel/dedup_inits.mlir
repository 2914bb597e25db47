// RUN: ttmlir-opt --ttkernel-dedup-inits %s | FileCheck %s
// Repeated engine inits go; a run of same-configuration reduces keeps one init and one uninit.

!cb = !ttkernel.cb<2, !ttcore.tile<32x32, bf16>>

// CHECK-LABEL: func.func @repeated
// CHECK: ttkernel.init_sfpu
// CHECK-NEXT: ttkernel.exp_tile_init
// CHECK-NEXT: ttkernel.init_sfpu
// CHECK-NEXT: return
func.func @repeated() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %in = ttkernel.get_compile_time_arg_val(0) : () -> !cb
  %out = ttkernel.get_compile_time_arg_val(1) : () -> !cb
  ttkernel.init_sfpu(%in, %out) : (!cb, !cb) -> ()
  ttkernel.init_sfpu(%in, %out) : (!cb, !cb) -> ()
  ttkernel.exp_tile_init() : () -> ()
  ttkernel.exp_tile_init() : () -> ()
  ttkernel.init_sfpu(%in, %out) : (!cb, !cb) -> ()
  return
}

// CHECK-LABEL: func.func @reduce_run
// CHECK: ttkernel.reduce_init
// CHECK-NEXT: ttkernel.reduce_tile
// CHECK-NEXT: arith.addi
// CHECK-NEXT: ttkernel.reduce_tile
// CHECK-NEXT: ttkernel.reduce_uninit
// CHECK-NEXT: ttkernel.tile_regs_commit
func.func @reduce_run(%t: i32) attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %in = ttkernel.get_compile_time_arg_val(0) : () -> !cb
  %s = ttkernel.get_compile_time_arg_val(1) : () -> !cb
  %out = ttkernel.get_compile_time_arg_val(2) : () -> !cb
  "ttkernel.reduce_init"(%in, %s, %out) <{reduce_dim = #ttkernel.reduce_dim<reduce_dim_col>, reduce_type = #ttkernel.reduce_type<reduce_sum>}> : (!cb, !cb, !cb) -> ()
  "ttkernel.reduce_tile"(%in, %s, %t, %t, %t) <{reduce_dim = #ttkernel.reduce_dim<reduce_dim_col>, reduce_type = #ttkernel.reduce_type<reduce_sum>}> : (!cb, !cb, i32, i32, i32) -> ()
  "ttkernel.reduce_uninit"() : () -> ()
  %t1 = arith.addi %t, %t : i32
  "ttkernel.reduce_init"(%in, %s, %out) <{reduce_dim = #ttkernel.reduce_dim<reduce_dim_col>, reduce_type = #ttkernel.reduce_type<reduce_sum>}> : (!cb, !cb, !cb) -> ()
  "ttkernel.reduce_tile"(%in, %s, %t1, %t, %t) <{reduce_dim = #ttkernel.reduce_dim<reduce_dim_col>, reduce_type = #ttkernel.reduce_type<reduce_sum>}> : (!cb, !cb, i32, i32, i32) -> ()
  "ttkernel.reduce_uninit"() : () -> ()
  "ttkernel.tile_regs_commit"() : () -> ()
  return
}

// A reduce after the uninit ran under the reset configuration: the uninit stays, and so does a later init that
// would have matched the first (that configuration is no longer in force).
// CHECK-LABEL: func.func @uninit_in_use
// CHECK: ttkernel.reduce_init
// CHECK-NEXT: ttkernel.reduce_tile
// CHECK-NEXT: ttkernel.reduce_uninit
// CHECK-NEXT: ttkernel.reduce_tile
// CHECK-NEXT: ttkernel.reduce_uninit
// CHECK-NEXT: ttkernel.reduce_init
// CHECK-NEXT: ttkernel.reduce_tile
func.func @uninit_in_use(%t: i32) attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %in = ttkernel.get_compile_time_arg_val(0) : () -> !cb
  %s = ttkernel.get_compile_time_arg_val(1) : () -> !cb
  %out = ttkernel.get_compile_time_arg_val(2) : () -> !cb
  "ttkernel.reduce_init"(%in, %s, %out) <{reduce_dim = #ttkernel.reduce_dim<reduce_dim_col>, reduce_type = #ttkernel.reduce_type<reduce_sum>}> : (!cb, !cb, !cb) -> ()
  "ttkernel.reduce_tile"(%in, %s, %t, %t, %t) <{reduce_dim = #ttkernel.reduce_dim<reduce_dim_col>, reduce_type = #ttkernel.reduce_type<reduce_sum>}> : (!cb, !cb, i32, i32, i32) -> ()
  "ttkernel.reduce_uninit"() : () -> ()
  "ttkernel.reduce_tile"(%in, %s, %t, %t, %t) <{reduce_dim = #ttkernel.reduce_dim<reduce_dim_col>, reduce_type = #ttkernel.reduce_type<reduce_sum>}> : (!cb, !cb, i32, i32, i32) -> ()
  "ttkernel.reduce_uninit"() : () -> ()
  "ttkernel.reduce_init"(%in, %s, %out) <{reduce_dim = #ttkernel.reduce_dim<reduce_dim_col>, reduce_type = #ttkernel.reduce_type<reduce_sum>}> : (!cb, !cb, !cb) -> ()
  "ttkernel.reduce_tile"(%in, %s, %t, %t, %t) <{reduce_dim = #ttkernel.reduce_dim<reduce_dim_col>, reduce_type = #ttkernel.reduce_type<reduce_sum>}> : (!cb, !cb, i32, i32, i32) -> ()
  return
}
