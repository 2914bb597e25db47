// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s -o %t.mlir
// RUN: not ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn 2>&1 | FileCheck %s
// RUN: not test -e %t.ttnn

// A tensor whose size no flatbuffer can hold is refused where it is declared, and no binary is written.
// CHECK: error: a tensor of 40000000000000000000000 bytes is too large for a flatbuffer (sizes are below 2^64 bytes)
// CHECK-NEXT: func.func @huge
func.func @huge(%a: tensor<99999999999x99999999999xf32>) -> tensor<99999999999x99999999999xf32> {
  %0 = "ttir.relu"(%a) : (tensor<99999999999x99999999999xf32>) -> tensor<99999999999x99999999999xf32>
  return %0 : tensor<99999999999x99999999999xf32>
}
