// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | FileCheck %s
// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s --check-prefix=CPP
// RUN: not ttmlir-opt --convert-ttkernel-to-emitc %S/index_size_t_negative.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// A kernel's index values are size_t: index constants, the index arithmetic, comparisons and casts, and loops over
// indices (an emitc.for, its type printed; a value it carries a variable, as an if's index results are), a select
// of indices a conditional; i32 arithmetic keeps its type.

// CHECK-LABEL: func.func @tiles
// CHECK: %[[ZERO:.*]] = "emitc.constant"() <{value = 0 : index}> : () -> !emitc.size_t
// CHECK: %[[FOUR:.*]] = "emitc.constant"() <{value = 4 : index}> : () -> !emitc.size_t
// CHECK: %[[ONE:.*]] = "emitc.constant"() <{value = 1 : index}> : () -> !emitc.size_t
// CHECK: emitc.for %[[I:.*]] = %[[ZERO]] to %[[FOUR]] step %[[ONE]]  : !emitc.size_t {
// CHECK: emitc.for %[[J:.*]] = %[[ZERO]] to %[[FOUR]] step %[[ONE]]  : !emitc.size_t {
// CHECK: %[[ROW:.*]] = emitc.mul %[[I]], %[[FOUR]] : (!emitc.size_t, !emitc.size_t) -> !emitc.size_t
// CHECK: %[[T:.*]] = emitc.add %[[ROW]], %[[J]] : (!emitc.size_t, !emitc.size_t) -> !emitc.size_t
// CHECK: emitc.rem %[[T]], %[[FOUR]] : (!emitc.size_t, !emitc.size_t) -> !emitc.size_t
// CHECK: %[[LAST:.*]] = emitc.cmp eq, %[[J]], %{{.*}} : (!emitc.size_t, !emitc.size_t) -> i1
// CHECK: emitc.cast %[[T]] : !emitc.size_t to i32
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: emitc.call_opaque "copy_tile"(%{{.*}}, %[[T]], %[[ZERO]]) : (!emitc.opaque<"uint32_t">, !emitc.size_t, !emitc.size_t) -> ()
// CHECK: emitc.cast %[[J]] : !emitc.size_t to i32
// CHECK-NOT: index)
// CHECK: return
// CHECK-LABEL: func.func @carried
// CHECK: %[[SUM:.*]] = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> !emitc.lvalue<!emitc.size_t>
// CHECK-NEXT: emitc.assign %{{.*}} : !emitc.size_t to %[[SUM]] : !emitc.lvalue<!emitc.size_t>
// CHECK-NEXT: emitc.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}}  : !emitc.size_t {
// CHECK-NEXT: %[[ACC:.*]] = emitc.load %[[SUM]] : !emitc.lvalue<!emitc.size_t>
// CHECK-NEXT: %[[NEXT:.*]] = emitc.add %[[ACC]], %[[K]] : (!emitc.size_t, !emitc.size_t) -> !emitc.size_t
// CHECK-NEXT: emitc.assign %[[NEXT]] : !emitc.size_t to %[[SUM]] : !emitc.lvalue<!emitc.size_t>
// CHECK-NEXT: }
// CHECK-NEXT: %[[TOTAL:.*]] = emitc.load %[[SUM]] : !emitc.lvalue<!emitc.size_t>
// CHECK: emitc.call_opaque "copy_tile"(%{{.*}}, %[[TOTAL]], %{{.*}})
// CHECK-LABEL: func.func @choose
// CHECK: %[[PICK:.*]] = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> !emitc.lvalue<!emitc.size_t>
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: emitc.assign %{{.*}} : !emitc.size_t to %[[PICK]] : !emitc.lvalue<!emitc.size_t>
// CHECK-NEXT: } else {
// CHECK-NEXT: emitc.assign %{{.*}} : !emitc.size_t to %[[PICK]] : !emitc.lvalue<!emitc.size_t>
// CHECK-NEXT: }
// CHECK-NEXT: %[[P:.*]] = emitc.load %[[PICK]] : !emitc.lvalue<!emitc.size_t>
// CHECK-NEXT: %[[C:.*]] = emitc.conditional %{{.*}}, %[[P]], %{{.*}} : !emitc.size_t
// CHECK: emitc.call_opaque "copy_tile"(%{{.*}}, %[[C]], %{{.*}})
// CPP: for (size_t [[I:i[0-9]+]] = v{{[0-9]+}}; [[I]] < v{{[0-9]+}}; [[I]] += v{{[0-9]+}}) {
// CPP: size_t [[T:v[0-9]+]] = v{{[0-9]+}} + [[J:i[0-9]+]];
// CPP: bool v{{[0-9]+}} = [[J]] == v{{[0-9]+}};
// CPP: int32_t v{{[0-9]+}} = (int32_t) [[T]];
// CPP: copy_tile(get_compile_time_arg_val(0), [[T]], v{{[0-9]+}});
// CPP: size_t [[S:v[0-9]+]];
// CPP-NEXT: [[S]] = v{{[0-9]+}};
// CPP-NEXT: for (size_t [[K:i[0-9]+]] = v{{[0-9]+}}; [[K]] < v{{[0-9]+}}; [[K]] += v{{[0-9]+}}) {
// CPP-NEXT: size_t [[A:v[0-9]+]] = [[S]];
// CPP-NEXT: size_t [[N:v[0-9]+]] = [[A]] + [[K]];
// CPP-NEXT: [[S]] = [[N]];
// CPP-NEXT: }
// CPP: size_t [[C:v[0-9]+]] = v{{[0-9]+}} ? v{{[0-9]+}} : v{{[0-9]+}};
// CPP-NEXT: copy_tile(get_compile_time_arg_val(0), [[C]], v{{[0-9]+}});
// BAD: index_size_t_negative.mlir:6:8: error: failed to legalize operation 'arith.ceildivsi'
func.func @tiles() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %cb = ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<4, !ttcore.tile<32x32, bf16>>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %k = arith.constant 7 : i32
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %row = arith.muli %i, %c4 : index
      %t = arith.addi %row, %j : index
      %r = arith.remui %t, %c4 : index
      %last = arith.cmpi eq, %j, %c3 : index
      %w = arith.index_cast %t : index to i32
      %s = arith.addi %w, %k : i32
      "ttkernel.copy_tile"(%cb, %t, %c0) : (!ttkernel.cb<4, !ttcore.tile<32x32, bf16>>, index, index) -> ()
      %jw = arith.index_cast %j : index to i32
    }
  }
  return
}

func.func @carried() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %cb = ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<4, !ttcore.tile<32x32, bf16>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {
    %next = arith.addi %acc, %k : index
    scf.yield %next : index
  }
  "ttkernel.copy_tile"(%cb, %sum, %c0) : (!ttkernel.cb<4, !ttcore.tile<32x32, bf16>>, index, index) -> ()
  return
}

func.func @choose() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %cb = ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<4, !ttcore.tile<32x32, bf16>>
  %w = ttkernel.get_compile_time_arg_val(1) : () -> i32
  %z = arith.constant 0 : i32
  %f = arith.cmpi eq, %w, %z : i32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %pick = scf.if %f -> (index) {
    scf.yield %c0 : index
  } else {
    scf.yield %c2 : index
  }
  %c = arith.select %f, %pick, %c2 : index
  "ttkernel.copy_tile"(%cb, %c, %c0) : (!ttkernel.cb<4, !ttcore.tile<32x32, bf16>>, index, index) -> ()
  return
}

