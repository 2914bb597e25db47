// REQUIRES: stablehlo
// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// i1 elements in a dense hex literal are bit-packed (first element in the lowest bit), as MLIR writes them.

// CHECK-LABEL: func.func @few
// CHECK: dense<[true, false, true, false, false, false, false, false, false, true]> : tensor<10xi1>
func.func @few() -> tensor<10xi1> {
  %0 = stablehlo.constant dense<"0x0502"> : tensor<10xi1>
  return %0 : tensor<10xi1>
}

// more than 100 elements print as hex again, packed the same way
// CHECK-LABEL: func.func @many
// CHECK: dense<"0x05020000000000000000000000000000000000000000000080"> : tensor<200xi1>
func.func @many() -> tensor<200xi1> {
  %0 = stablehlo.constant dense<"0x05020000000000000000000000000000000000000000000080"> : tensor<200xi1>
  return %0 : tensor<200xi1>
}
