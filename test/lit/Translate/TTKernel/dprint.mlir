// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | FileCheck %s --check-prefix=EMITC
// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s
// ttkernel.dprint is tt-metal's DPRINT of its format string and operands; on a compute core a CB operand prints
// the CB's details through ttmlir::CBPrinter; a data movement core prints the CB's id.

// EMITC: emitc.literal "\22a={} cb={}\\n\22" : !emitc.opaque<"const char[]">
// EMITC: emitc.call_opaque "ttmlir::CBPrinter"
// EMITC: emitc.call_opaque "DPRINT"

// CHECK: #include "api/debug/dprint.h"
// CHECK: ttmlir::CBPrinter [[CB:v[0-9]+]] = ttmlir::CBPrinter(get_compile_time_arg_val(1));
// CHECK: DPRINT("a={} cb={}\n", v{{[0-9]+}}, [[CB]]);
// CHECK: DPRINT("cb={}\n", get_compile_time_arg_val(0));
func.func @compute() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %a = arith.constant 7 : i32
  %cb = ttkernel.get_compile_time_arg_val(1) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  ttkernel.dprint("a={} cb={}\\n", %a, %cb) : (i32, !ttkernel.cb<2, !ttcore.tile<32x32, f32>>) -> ()
  return
}

func.func @reader() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %cb = ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  ttkernel.dprint("cb={}\\n", %cb) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>) -> ()
  return
}
