// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline --ttir-to-ttnn-backend-pipeline %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: FileCheck %s --input-file=%t.mlir
// An optimization barrier keeps passes from moving work across it and means nothing at run time: the TTNN
// pipeline folds it away before deallocation, so the program serializes.
// CHECK-LABEL: func.func @barrier
// CHECK-NOT: optimization_barrier
// CHECK: "ttnn.multiply"(%arg0, %arg1)
func.func @barrier(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0:2 = stablehlo.optimization_barrier %a, %b : tensor<32x32xf32>, tensor<32x32xf32>
  %1 = stablehlo.multiply %0#0, %0#1 : tensor<32x32xf32>
  return %1 : tensor<32x32xf32>
}
