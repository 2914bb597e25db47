// RUN: rm -f %t.mlir
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline %s -o %t.mlir 2>&1 | FileCheck %s
// RUN: not test -e %t.mlir

// A tensor whose size no 64-bit integer holds (so no flatbuffer either) is refused where it is declared, and
// nothing is written.
// CHECK: too_large.mlir:9:21: error: tensor<99999999999x99999999999xf32> is too large: 9999999999800000000001 elements of 4 bytes each do not fit a 64-bit size
// CHECK-NEXT: func.func @huge
func.func @huge(%a: tensor<99999999999x99999999999xf32>) -> tensor<99999999999x99999999999xf32> {
  %0 = "ttir.relu"(%a) : (tensor<99999999999x99999999999xf32>) -> tensor<99999999999x99999999999xf32>
  return %0 : tensor<99999999999x99999999999xf32>
}
