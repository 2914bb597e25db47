// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// memref.global reads and prints in MLIR's custom form: visibility, constant, the initializer's literal without its
// type (the memref's, as a tensor) or `uninitialized`, then its attributes.

// CHECK: memref.global "private" constant @c : memref<2x2xf32> = dense<1.000000e+00> {alignment = 64 : i64}
memref.global "private" constant @c : memref<2x2xf32> = dense<1.0> {alignment = 64 : i64}
// CHECK: memref.global @u : memref<4xi32> = uninitialized
memref.global @u : memref<4xi32> = uninitialized
// CHECK: memref.global "private" @h : memref<2xbf16> = dense<[1.000000e+00, 2.000000e+00]>
memref.global "private" @h : memref<2xbf16> = dense<[1.0, 2.0]>
// the generic form still reads
// CHECK: memref.global "private" @g : memref<3xi32> = dense<[1, 2, 3]>
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<3xi32>, initial_value = dense<[1, 2, 3]> : tensor<3xi32>}> : () -> ()
