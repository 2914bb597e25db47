// A textual pipeline is read whole: nested anchors run their passes, and a malformed one is an error that
// names the column, never a silently shorter pipeline.
// RUN: ttmlir-opt --pass-pipeline="builtin.module(func.func(canonicalize),cse)" %s | FileCheck %s
// RUN: not ttmlir-opt --pass-pipeline="builtin.module(canonicalize" %s 2>&1 | FileCheck %s --check-prefix=OPEN
// RUN: not ttmlir-opt --pass-pipeline="builtin.module(canonicalize))" %s 2>&1 | FileCheck %s --check-prefix=EXTRA
// RUN: not ttmlir-opt --pass-pipeline="canonicalize,,cse" %s 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not ttmlir-opt --pass-pipeline="builtin.module(canonicalize{" %s 2>&1 | FileCheck %s --check-prefix=BRACE
// OPEN: invalid pass pipeline 'builtin.module(canonicalize': expected ')' at column 28
// EXTRA: invalid pass pipeline 'builtin.module(canonicalize))': unexpected ')' at column 29
// EMPTY: invalid pass pipeline 'canonicalize,,cse': expected a pass name at column 14
// BRACE: '{' at column 28 is never closed

// CHECK-LABEL: func.func @same_twice
// CHECK: %[[R:.*]] = "ttir.relu"(%arg0)
// CHECK-NEXT: "ttir.add"(%[[R]], %[[R]])
func.func @same_twice(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = "ttir.relu"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = "ttir.relu"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %2 = "ttir.add"(%0, %1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %2 : tensor<32x32xf32>
}
