// RUN: not ttmlir-opt --ttcore-register-device --d2m-fe-pipeline --d2m-be-pipeline --d2m-to-ttkernel-pipeline --d2m-to-ttmetal-pipeline %s 2>&1 | FileCheck %s
// A slice of one of a 4-d tensor's batch dims is placed on a virtual grid, which the memref-form programs do not
// lower yet. The refusal points at the op the generic was made from: bufferization's rebuilt ops keep their source.

func.func @batch_slice(%a: tensor<2x3x64x64xf32>) -> tensor<2x1x64x32xf32> {
  // CHECK: virtual_grid_negative.mlir:[[# @LINE + 1]]:8: error: a generic on a virtual grid is not lowered to TTMetal in memref form yet
  %0 = "ttir.slice_static"(%a) <{begins = [0: i32, 1: i32, 0: i32, 32: i32], ends = [2: i32, 2: i32, 64: i32, 64: i32], step = [1: i32, 1: i32, 1: i32, 1: i32]}> : (tensor<2x3x64x64xf32>) -> tensor<2x1x64x32xf32>
  return %0 : tensor<2x1x64x32xf32>
}
