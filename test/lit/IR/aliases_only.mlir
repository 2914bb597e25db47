// RUN: ttmlir-opt --split-input-file %s | FileCheck %s
// A piece of input holding only alias definitions (no ops) is an empty module, as MLIR reads it.

// CHECK: module {
// CHECK-NEXT: }
#l1 = #ttcore.memory_space<l1>
!t = tensor<2x2xf32>

// -----

// CHECK: // -----
// CHECK: func.func @after
func.func @after(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  return %a : tensor<2x2xf32>
}
