// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// StableHLO's check ops read and print in their own syntax; the constant forms give the operand the
// constant's type.

// CHECK-LABEL: func.func @checks
func.func @checks(%a: tensor<2xi32>, %b: tensor<2xi32>, %x: tensor<3xf32>, %h: tensor<f16>) {
  // CHECK: check.expect_eq_const %{{.*}}, dense<[7, -1]> : tensor<2xi32>
  check.expect_eq_const %a, dense<[7, -1]> : tensor<2xi32>
  // CHECK: check.expect_eq %{{.*}}, %{{.*}} : tensor<2xi32>
  check.expect_eq %a, %b : tensor<2xi32>
  // CHECK: check.expect_almost_eq_const %{{.*}}, dense<[1.000000e+00, 2.500000e+00, -3.000000e+00]> : tensor<3xf32>, tolerance = 1.000000e-01
  check.expect_almost_eq_const %x, dense<[1.0, 2.5, -3.0]> : tensor<3xf32>, tolerance = 0.1
  // CHECK: check.expect_almost_eq %{{.*}}, %{{.*}}, tolerance = 1.000000e-02 : tensor<3xf32>
  check.expect_almost_eq %x, %x, tolerance = 0.01 : tensor<3xf32>
  // CHECK: check.expect_close %{{.*}}, %{{.*}}, max_ulp_difference = 3 : tensor<f16>, tensor<f16>
  check.expect_close %h, %h, max_ulp_difference = 3 : tensor<f16>, tensor<f16>
  // CHECK: check.expect_serialized_eq %{{.*}}, probe_id = "probe1", iter = 2 : tensor<3xf32>
  check.expect_serialized_eq %x, probe_id = "probe1", iter = 2 : tensor<3xf32>
  return
}

// A check whose constant's type differs from its operand's is refused.
// RUN: not ttmlir-opt %S/Inputs/check_type_mismatch.mlir 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: check_type_mismatch.mlir:3:{{[0-9]+}}: error:
