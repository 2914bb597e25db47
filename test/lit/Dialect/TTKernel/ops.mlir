// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --split-input-file --verify-diagnostics %S/ops_negative.mlir
// ttkernel ops in upstream's syntax: operands (and a few attributes) in parentheses, then the function type.

// CHECK: %[[CB:.*]] = ttkernel.get_compile_time_arg_val(3) : () -> !ttkernel.cb<4, !ttcore.tile<32x32, bf16>>
// CHECK: ttkernel.cb_reserve_back(%[[CB]], %{{.*}}) : (!ttkernel.cb<4, !ttcore.tile<32x32, bf16>>, i32) -> ()
// CHECK: ttkernel.matmul_tiles(%[[CB]], %[[CB]], %{{.*}}, %{{.*}}, %{{.*}}) : (!ttkernel.cb<4, !ttcore.tile<32x32, bf16>>, !ttkernel.cb<4, !ttcore.tile<32x32, bf16>>, index, index, index) -> ()
// CHECK: ttkernel.pack_tile(%{{.*}}, %[[CB]], %{{.*}}, false)
// CHECK: %{{.*}} = ttkernel.get_read_ptr(%[[CB]]) : (!ttkernel.cb<4, !ttcore.tile<32x32, bf16>>) -> i32
func.func @ops() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %c0 = arith.constant 0 : index
  %n = arith.constant 1 : i32
  %cb = ttkernel.get_compile_time_arg_val(3) : () -> !ttkernel.cb<4, !ttcore.tile<32x32, bf16>>
  "ttkernel.cb_reserve_back"(%cb, %n) : (!ttkernel.cb<4, !ttcore.tile<32x32, bf16>>, i32) -> ()
  ttkernel.matmul_tiles(%cb, %cb, %c0, %c0, %c0) : (!ttkernel.cb<4, !ttcore.tile<32x32, bf16>>, !ttkernel.cb<4, !ttcore.tile<32x32, bf16>>, index, index, index) -> ()
  ttkernel.pack_tile(%c0, %cb, %c0, false) : (index, !ttkernel.cb<4, !ttcore.tile<32x32, bf16>>, index) -> ()
  %p = ttkernel.get_read_ptr(%cb) : (!ttkernel.cb<4, !ttcore.tile<32x32, bf16>>) -> i32
  return
}
