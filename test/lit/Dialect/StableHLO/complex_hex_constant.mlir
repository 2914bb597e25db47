// REQUIRES: stablehlo
// RUN: ttmlir-opt %s | FileCheck %s
// RUN: not ttmlir-opt %S/Inputs/complex_int_with_float_part.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// A hex part of a complex-of-float literal is that part's bit pattern, beside hex or decimal parts, as MLIR reads it.

// CHECK-LABEL: func.func @nan_and_one
// CHECK: dense<[(0x7FF0000000000001,1.500000e+00), (2.000000e+00,1.000000e+00)]> : tensor<2xcomplex<f64>>
func.func @nan_and_one() -> tensor<2xcomplex<f64>> {
  %0 = stablehlo.constant dense<[(0x7FF0000000000001, 1.5), (2.0, 0x3FF0000000000000)]> : tensor<2xcomplex<f64>>
  return %0 : tensor<2xcomplex<f64>>
}

// BAD: complex_int_with_float_part.mlir:3:{{[0-9]+}}: error: expected integer parts for complex<i32>
