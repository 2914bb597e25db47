// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | FileCheck %s
// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s --check-prefix=CPP
// Each ttkernel call becomes the C++ call it stands for; CB handles become uint32_t ports.

// CHECK-LABEL: func.func @sfpu_add
// CHECK: emitc.include "api/compute/common.h"
// CHECK: %[[IN0:.*]] = emitc.literal "get_compile_time_arg_val(0)" : !emitc.opaque<"uint32_t">
// CHECK: %[[COUNT:.*]] = emitc.call_opaque "get_arg_val"(%{{.*}}) {template_args = [#emitc.opaque<"uint32_t">]} : (!emitc.size_t) -> ui32
// CHECK: emitc.call_opaque "copy_tile"(%[[IN0]], %{{.*}}, %{{.*}}) : (!emitc.opaque<"uint32_t">, !emitc.size_t, !emitc.size_t) -> ()
// CHECK: emitc.call_opaque "add_binary_tile_init"() : () -> ()
// CHECK-NEXT: emitc.call_opaque "add_binary_tile"
// CHECK: emitc.call_opaque "pack_tile"({{.*}}) {template_args = [#emitc.opaque<"true">]}
// CHECK-NOT: ttkernel.
// CPP: namespace NAMESPACE {
// CPP: uint32_t v{{[0-9]+}} = get_arg_val<uint32_t>(v{{[0-9]+}});
// CPP: copy_tile(get_compile_time_arg_val(0), v{{[0-9]+}}, v{{[0-9]+}});
// CPP: add_binary_tile(v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}});
// CPP: pack_tile<true>(v{{[0-9]+}}, get_compile_time_arg_val(2), v{{[0-9]+}});
func.func @sfpu_add() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %in0 = ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  %in1 = ttkernel.get_compile_time_arg_val(1) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  %out = ttkernel.get_compile_time_arg_val(2) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  %count = ttkernel.get_arg_val(%c0) : (index) -> ui32
  ttkernel.init_sfpu(%in0, %out) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, !ttkernel.cb<2, !ttcore.tile<32x32, f32>>) -> ()
  ttkernel.cb_wait_front(%in0, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
  ttkernel.tile_regs_acquire() : () -> ()
  ttkernel.copy_tile(%in0, %c0, %c0) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index, index) -> ()
  ttkernel.copy_tile(%in1, %c0, %c1) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index, index) -> ()
  ttkernel.add_binary_tile_init() : () -> ()
  ttkernel.add_binary_tile(%c0, %c1, %c0) : (index, index, index) -> ()
  ttkernel.pack_tile(%c0, %out, %c0, true) : (index, !ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index) -> ()
  return
}

// An engine configuration for a unary kernel: one input CB and the output CB.
// CHECK-LABEL: func.func @unary_startup
// CHECK: emitc.call_opaque "unary_op_init_common"(%{{.*}}, %{{.*}}) : (!emitc.opaque<"uint32_t">, !emitc.opaque<"uint32_t">) -> ()
// CPP: unary_op_init_common(get_compile_time_arg_val(0), get_compile_time_arg_val(1));
func.func @unary_startup() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %in = ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, bf16>>
  %out = ttkernel.get_compile_time_arg_val(1) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, bf16>>
  ttkernel.unary_op_init_common(%in, %out) : (!ttkernel.cb<2, !ttcore.tile<32x32, bf16>>, !ttkernel.cb<2, !ttcore.tile<32x32, bf16>>) -> ()
  return
}
