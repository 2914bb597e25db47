// RUN: ttmlir-opt --ttir-element-type-normalization --split-input-file %s | FileCheck %s
// RUN: not ttmlir-opt --ttir-element-type-normalization --split-input-file %S/Inputs/element_type_out_of_range.mlir 2>&1 | FileCheck %s --check-prefix=RANGE
// The device stores 64-bit integers as 32-bit ones: constants that fit keep their values, one that does not is
// an error (saturating it would be a silent wrong answer), unless it only bounds values from its side (torch's
// clamp(min=...) passes INT64_MAX as the max), where saturating is exact.
// RANGE: element_type_out_of_range.mlir:3:{{[0-9]+}}: error: i64 value 2147483648 does not fit si32, the type the device stores it in (-2147483648..2147483647)
// RANGE: element_type_out_of_range.mlir:{{[0-9]+}}:{{[0-9]+}}: error: ui64 value 4294967296 does not fit ui32, the type the device stores it in (0..4294967295)
// RANGE: element_type_out_of_range.mlir:{{[0-9]+}}:{{[0-9]+}}: error: i64 value 9223372036854775807 does not fit si32

// CHECK-LABEL: func.func @fits
func.func @fits() -> (tensor<3xi64>, tensor<2xui64>) {
  // CHECK: dense<[-2147483648, 0, 2147483647]> : tensor<3xsi32>
  %0 = "ttir.constant"() <{value = dense<[-2147483648, 0, 2147483647]> : tensor<3xi64>}> : () -> tensor<3xi64>
  // CHECK: dense<[0, 4294967295]> : tensor<2xui32>
  %1 = "ttir.constant"() <{value = dense<[0, 4294967295]> : tensor<2xui64>}> : () -> tensor<2xui64>
  return %0, %1 : tensor<3xi64>, tensor<2xui64>
}

// -----

// A dimension of size 1 broadcasts to the other operand's size, 0 included.
// CHECK-LABEL: func.func @empty_broadcast
func.func @empty_broadcast(%a: tensor<2x0x3xf32>, %b: tensor<2x1x3xf32>) -> tensor<2x0x3xf32> {
  // CHECK: "ttir.add"
  %0 = "ttir.add"(%a, %b) : (tensor<2x0x3xf32>, tensor<2x1x3xf32>) -> tensor<2x0x3xf32>
  return %0 : tensor<2x0x3xf32>
}

// -----

// CHECK-LABEL: func.func @sentinel_bounds
func.func @sentinel_bounds(%x: tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>) {
  %lo = "ttir.constant"() <{value = dense<1> : tensor<4xi64>}> : () -> tensor<4xi64>
  // CHECK: dense<2147483647> : tensor<4xsi32>
  %hi = "ttir.constant"() <{value = dense<9223372036854775807> : tensor<4xi64>}> : () -> tensor<4xi64>
  // CHECK: dense<-2147483648> : tensor<4xsi32>
  %floor = "ttir.constant"() <{value = dense<-9223372036854775808> : tensor<4xi64>}> : () -> tensor<4xi64>
  %0 = "ttir.clamp_tensor"(%x, %lo, %hi) : (tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %1 = "ttir.maximum"(%x, %floor) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0, %1 : tensor<4xi64>, tensor<4xi64>
}
