// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// A constant written element by element whose elements are all equal is a splat: it becomes a full op whose
// fill value is that one element.

// CHECK-LABEL: func.func @repeated_elements
func.func @repeated_elements() -> (tensor<3xf32>, tensor<3xsi32>) {
  // CHECK: "ttir.full"() <{fill_value = 5.000000e-01 : f32
  %0 = "ttir.constant"() <{value = dense<[5.000000e-01, 5.000000e-01, 5.000000e-01]> : tensor<3xf32>}> : () -> tensor<3xf32>
  // CHECK: "ttir.full"() <{fill_value = 7 : i32
  %1 = "ttir.constant"() <{value = dense<[7, 7, 7]> : tensor<3xsi32>}> : () -> tensor<3xsi32>
  return %0, %1 : tensor<3xf32>, tensor<3xsi32>
}
