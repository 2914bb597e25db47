// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | FileCheck %s
// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s --check-prefix=CPP
// RUN: not ttmlir-opt --convert-ttkernel-to-emitc %S/arith_negative.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// arith ops with no emitc lowering of their own: a floor division of indices (size_t, never negative) is a division;
// min and max are std::min / std::max calls, spelled with their type as upstream spells them.

// CHECK-LABEL: func.func @index_math
// CHECK: emitc.div %{{.*}}, %{{.*}} : (!emitc.size_t, !emitc.size_t) -> !emitc.size_t
// CHECK: emitc.call_opaque "std::min<int32_t>"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: emitc.call_opaque "std::max<int32_t>"
// CHECK: emitc.call_opaque "std::min<size_t>"
// CHECK: emitc.call_opaque "std::max<size_t>"
// CPP: std::min<int32_t>(
// BAD: arith_negative.mlir:5:8: error: failed to legalize operation 'arith.floordivsi'
func.func @index_math() attributes {ttkernel.thread = #ttkernel.thread<noc>} {
  %a = ttkernel.get_compile_time_arg_val(0) : () -> i32
  %b = ttkernel.get_compile_time_arg_val(1) : () -> i32
  %ia = arith.index_cast %a : i32 to index
  %ib = arith.index_cast %b : i32 to index
  %q = arith.floordivsi %ia, %ib : index
  %lo = arith.minsi %a, %b : i32
  %hi = arith.maxsi %a, %b : i32
  %ulo = arith.minui %a, %b : i32
  %uhi = arith.maxui %a, %b : i32
  return
}
