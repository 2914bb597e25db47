// RUN: ttmlir-opt --split-input-file --verify-diagnostics --tosa-to-linalg %s | FileCheck %s
// Elementwise TOSA ops become linalg.generics over the result's shape, a size-1 dimension of an operand read at
// index 0; data movement and matmul are generics whose maps move the data.

// CHECK-DAG: #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:map[0-9]*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[SWAP:map[0-9]*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @ops
func.func @ops(%a: tensor<4x8xf32>, %b: tensor<1x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xi32>) {
  // CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1
  // CHECK: arith.addf
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.generic {indexing_maps = [#[[SWAP]], #[[ID]]]
  %1 = tosa.transpose %0 {perms = array<i32: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  // TOSA's cast to an integer rounds to nearest even and saturates.
  // CHECK: math.roundeven
  // CHECK: arith.maximumf
  // CHECK: arith.minimumf
  // CHECK: arith.fptosi
  %2 = tosa.cast %0 : (tensor<4x8xf32>) -> tensor<4x8xi32>
  // CHECK-NOT: tosa.
  return %0, %1, %2 : tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xi32>
}

// -----

// A reshape reads its operand at the linear index of the result's, split by the operand's strides.
// CHECK: #[[SPLIT:map[0-9]*]] = affine_map<(d0, d1) -> ((d0 * 6 + d1) floordiv 3, (d0 * 6 + d1) mod 3)>
// CHECK-LABEL: func.func @reshape
func.func @reshape(%a: tensor<4x3xf32>) -> tensor<2x6xf32> {
  %s = tosa.const_shape {values = dense<[2, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // CHECK: linalg.generic {indexing_maps = [#[[SPLIT]], #{{map[0-9]*}}]
  %0 = tosa.reshape %a, %s : (tensor<4x3xf32>, !tosa.shape<2>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @argmax(%a: tensor<2x3xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{failed to legalize operation 'tosa.argmax' that was explicitly marked illegal}}
  %0 = tosa.argmax %a {axis = 1 : i32} : (tensor<2x3xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
