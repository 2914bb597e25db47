// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --canonicalize --d2m-generic-fusion %s | FileCheck %s
// Once canonicalization has dropped the moves to the host and back between two programs, the producer feeds its
// consumer directly; d2m-generic-fusion computes it inside the consumer all the same.

// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: d2m.generic
// CHECK-NOT: d2m.generic
// CHECK: "d2m.tile_exp"
// CHECK-NEXT: "d2m.tile_mul"
func.func @chain(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.exp"(%a) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = "ttir.multiply"(%0, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}
