// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline %s 2>&1 | FileCheck %s
// A device buffer is sized at compile time: a dynamic dimension is refused where it first appears (here the
// function's signature), not turned into a buffer of -2^58 elements.

// CHECK: dynamic_shape.mlir:7:8: error: 'ttir.relu' op dynamic shapes are not supported: tensor<?x32xf32>
func.func @rows_unknown(%arg0: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %0 = "ttir.relu"(%arg0) : (tensor<?x32xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline %S/Inputs/dynamic_signature.mlir 2>&1 | FileCheck %s --check-prefix=SIGNATURE
// SIGNATURE: dynamic_signature.mlir:{{[0-9]+}}:1: error: dynamic shapes are not supported: tensor<8x?xbf16>
