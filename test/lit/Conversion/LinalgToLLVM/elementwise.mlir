// RUN: ttmlir-opt --linalg-to-llvm-pipeline %s | FileCheck %s
// linalg on tensors to the LLVM dialect: each memref argument expands into its descriptor's fields (base, aligned,
// offset, sizes, strides), the result is a descriptor struct; the op is a loop nest of loads and stores through the
// aligned pointers; its init is an argument, so the result gets a fresh buffer from malloc.

// CHECK-LABEL: llvm.func @scale(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: !llvm.ptr, %arg8: !llvm.ptr, %arg9: i64, %arg10: i64, %arg11: i64) -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[BYTES:[0-9]+]] = llvm.mlir.constant(512) : i64
// CHECK: %[[OUT:[0-9]+]] = llvm.call @malloc(%[[BYTES]]) : (i64) -> !llvm.ptr
// CHECK: llvm.icmp "slt"
// CHECK: llvm.cond_br
// CHECK: %[[IN:[0-9]+]] = llvm.getelementptr %arg1[%{{[0-9]+}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %[[X:[0-9]+]] = llvm.load %[[IN]] : !llvm.ptr -> f32
// CHECK: %[[S:[0-9]+]] = llvm.getelementptr %arg8[%{{[0-9]+}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %[[Y:[0-9]+]] = llvm.load %[[S]] : !llvm.ptr -> f32
// CHECK: %[[P:[0-9]+]] = llvm.fmul %[[X]], %[[Y]] : f32
// CHECK: %[[T:[0-9]+]] = llvm.getelementptr %[[OUT]][%{{[0-9]+}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: llvm.store %[[P]], %[[T]] : f32, !llvm.ptr
// CHECK: llvm.insertvalue %[[OUT]], %{{[0-9]+}}[0]
// CHECK: llvm.insertvalue %[[OUT]], %{{[0-9]+}}[1]
// CHECK: llvm.return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @scale(%x: tensor<4x32xf32>, %s: tensor<32xf32>) -> tensor<4x32xf32> {
  %init = tensor.empty() : tensor<4x32xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<4x32xf32>, tensor<32xf32>) outs(%init : tensor<4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// The buffers a function does not return are freed before it returns; the returned one is not.
// CHECK-LABEL: llvm.func @chain(
// CHECK: %[[FIRST:[0-9]+]] = llvm.call @malloc
// CHECK: %[[SECOND:[0-9]+]] = llvm.call @malloc
// CHECK: llvm.call @free(%[[FIRST]]) : (!llvm.ptr) -> ()
// CHECK-NOT: llvm.call @free(%[[SECOND]])
// CHECK: llvm.return
func.func @chain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e0 = tensor.empty() : tensor<8xf32>
  %0 = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %1 = linalg.mul ins(%0, %x : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// The C library functions the code calls are declared once, after the functions.
// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @free(!llvm.ptr)
