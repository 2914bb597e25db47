// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// Values are named as mlir-opt names them: a region's own values first, then each nested region's,
// continuing from the parent's count, sibling regions from the same number; entry arguments count apart
// (%argN), several results share one number (%N:2, used as %N#i), and an op's own result names (the
// values/indices of a sort) are made unique with _N across the enclosing regions.

// CHECK-LABEL: func.func @nested
func.func @nested(%a: tensor<4xf32>, %c: i1) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %0 = "ttir.abs"(%arg0)
  %x = "ttir.abs"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %1 = scf.if %arg1 -> (tensor<4xf32>) {
  %y = scf.if %c -> (tensor<4xf32>) {
    // CHECK-NEXT: %3 = "ttir.neg"(%0)
    // CHECK-NEXT: scf.yield %3
    %t = "ttir.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  } else {
    // CHECK: %3 = "ttir.exp"(%0)
    // CHECK-NEXT: %4 = "ttir.neg"(%3)
    // CHECK-NEXT: scf.yield %4
    %e = "ttir.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %n = "ttir.neg"(%e) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  // CHECK: %2 = "ttir.add"(%1, %0)
  %z = "ttir.add"(%y, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: return %2, %1
  return %z, %y : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @groups_and_names
func.func @groups_and_names(%a: tensor<2x6xf32>, %c: i1) -> tensor<2x6xsi32> {
  // CHECK: %values, %indices = "ttir.sort"(%arg0)
  %v, %i = "ttir.sort"(%a) <{dim = 1 : si32}> : (tensor<2x6xf32>) -> (tensor<2x6xf32>, tensor<2x6xsi32>)
  // CHECK: %0:2 = scf.if %arg1 -> (tensor<2x6xf32>, tensor<2x6xsi32>) {
  %r:2 = scf.if %c -> (tensor<2x6xf32>, tensor<2x6xsi32>) {
    // CHECK-NEXT: %values_0, %indices_1 = "ttir.sort"(%values)
    %v2, %i2 = "ttir.sort"(%v) <{dim = 1 : si32}> : (tensor<2x6xf32>) -> (tensor<2x6xf32>, tensor<2x6xsi32>)
    scf.yield %v2, %i2 : tensor<2x6xf32>, tensor<2x6xsi32>
  } else {
    scf.yield %v, %i : tensor<2x6xf32>, tensor<2x6xsi32>
  }
  // CHECK: return %0#1
  return %r#1 : tensor<2x6xsi32>
}
