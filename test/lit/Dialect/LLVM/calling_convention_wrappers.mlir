// RUN: ttmlir-opt --split-input-file --emit-calling-convention-wrappers %s | FileCheck %s
// A function marked with arg_ranks/result_ranks gets a `<name>_helper(ptr) -> ptr`: it loads each WrappedTensor
// (32 bytes: 4 pointer-sized words apart) and its sizes and strides, calls the function with them and packs the
// returned descriptors into a malloc'ed array of WrappedTensors.

// CHECK-LABEL: llvm.func @scale(
// The helpers call malloc: it is declared where the module has none.
// CHECK: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @scale_helper(%arg0: !llvm.ptr) -> !llvm.ptr
// CHECK: %[[I0:[0-9]+]] = llvm.mlir.constant(0) : i64
// CHECK: %[[W0:[0-9]+]] = llvm.mlir.constant(4) : i64
// CHECK: %[[OFF0:[0-9]+]] = llvm.mul %[[I0]], %[[W0]] : i64
// CHECK: %[[AT0:[0-9]+]] = llvm.getelementptr inbounds %arg0[%[[OFF0]]] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[T0:[0-9]+]] = llvm.load %[[AT0]] : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, ptr)>
// CHECK: %[[SS0:[0-9]+]] = llvm.extractvalue %[[T0]][3] : !llvm.struct<(ptr, ptr, i64, ptr)>
// CHECK: llvm.getelementptr %[[SS0]][%{{[0-9]+}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[R:[0-9]+]] = llvm.call @scale(
// CHECK-SAME: -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[SIZE:[0-9]+]] = llvm.mlir.constant(32) : i64
// CHECK: %[[OUTS:[0-9]+]] = llvm.call @malloc(%[[SIZE]]) : (i64) -> !llvm.ptr
// CHECK: %[[SSIZE:[0-9]+]] = llvm.mlir.constant(16) : i64
// CHECK: llvm.call @malloc(%[[SSIZE]]) : (i64) -> !llvm.ptr
// CHECK: llvm.extractvalue %[[R]][3, 0]
// CHECK: llvm.extractvalue %[[R]][4, 0]
// CHECK: llvm.store %{{[0-9]+}}, %{{[0-9]+}} : !llvm.struct<(ptr, ptr, i64, ptr)>, !llvm.ptr
// CHECK: llvm.return %[[OUTS]] : !llvm.ptr
module {
  llvm.func @scale(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64) -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> attributes {arg_ranks = [1], result_ranks = [1]} {
    %0 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    llvm.return %0 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  }
  // A function without the ranks gets no helper.
  llvm.func @plain(%arg0: i64) -> i64 {
    llvm.return %arg0 : i64
  }
}
// CHECK-NOT: @plain_helper

// -----

// No results: the helper returns nothing and allocates nothing.
// CHECK-LABEL: llvm.func @sink_helper(%arg0: !llvm.ptr)
// CHECK-NOT: malloc
// CHECK: llvm.call @sink(
// CHECK-NEXT: llvm.return
module {
  llvm.func @sink(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64) attributes {arg_ranks = [0], result_ranks = []} {
    llvm.return
  }
}
