// REQUIRES: stablehlo
// RUN: not ttmlir-opt --stablehlo-to-ttir-pipeline %s 2>&1 | FileCheck %s
// f8/f6/f4 values have no device format: refused at the op that makes them, not at a TTIR op built from it.

func.func @main() -> tensor<4xf8E4M3FN> {
  // CHECK: narrow_float_refused.mlir:[[# @LINE + 1]]:8: error: 'stablehlo.constant' op on f8E4M3FN values is not supported: the device's narrowest float is bf16
  %0 = stablehlo.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}
