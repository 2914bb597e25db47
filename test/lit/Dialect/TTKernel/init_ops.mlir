// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s --check-prefix=CPP
// The engines' start-up for a unary kernel (one input CB) or a binary one (two), and the uninit calls that undo
// a tilize, untilize or reduce init.

// CHECK-LABEL: func.func @startup
// CHECK: ttkernel.compute_kernel_hw_startup(%[[I:.*]], %[[O:.*]]) : (!ttkernel.cb<4, f32>, !ttkernel.cb<1, !ttcore.tile<32x32, f32>>) -> ()
// CHECK: ttkernel.compute_kernel_hw_startup(%[[I]], %[[I]], %[[O]]) : (
// CHECK: ttkernel.tilize_uninit(%[[I]], %[[O]]) : (
// CHECK: ttkernel.untilize_uninit(%[[O]]) : (
// CHECK: ttkernel.reduce_uninit() : () -> ()
// CPP: compute_kernel_hw_startup(get_compile_time_arg_val(0), get_compile_time_arg_val(1));
// CPP: compute_kernel_hw_startup(get_compile_time_arg_val(0), get_compile_time_arg_val(0), get_compile_time_arg_val(1));
// CPP: tilize_uninit(get_compile_time_arg_val(0), get_compile_time_arg_val(1));
// CPP: untilize_uninit(get_compile_time_arg_val(1));
// CPP: reduce_uninit();
func.func @startup() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %in = ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<4, f32>
  %out = ttkernel.get_compile_time_arg_val(1) : () -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
  ttkernel.compute_kernel_hw_startup(%in, %out) : (!ttkernel.cb<4, f32>, !ttkernel.cb<1, !ttcore.tile<32x32, f32>>) -> ()
  ttkernel.compute_kernel_hw_startup(%in, %in, %out) : (!ttkernel.cb<4, f32>, !ttkernel.cb<4, f32>, !ttkernel.cb<1, !ttcore.tile<32x32, f32>>) -> ()
  ttkernel.tilize_uninit(%in, %out) : (!ttkernel.cb<4, f32>, !ttkernel.cb<1, !ttcore.tile<32x32, f32>>) -> ()
  ttkernel.untilize_uninit(%out) : (!ttkernel.cb<1, !ttcore.tile<32x32, f32>>) -> ()
  ttkernel.reduce_uninit() : () -> ()
  return
}
