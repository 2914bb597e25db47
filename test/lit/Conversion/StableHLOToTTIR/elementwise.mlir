// REQUIRES: stablehlo
// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline %s | FileCheck %s
// One-to-one elementwise ops, comparisons, logical/bitwise by element type, scalar-predicate select.

module @jit_eltwise {
  // CHECK-LABEL: func.func public @math
  func.func public @math(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
    // CHECK: "ttir.add"(%arg0, %arg1)
    %0 = stablehlo.add %a, %b : tensor<4x8xf32>
    // CHECK: "ttir.div"
    %1 = stablehlo.divide %0, %b : tensor<4x8xf32>
    // CHECK: "ttir.sigmoid"
    %2 = stablehlo.logistic %1 : tensor<4x8xf32>
    // CHECK: "ttir.expm1"
    %3 = stablehlo.exponential_minus_one %2 : tensor<4x8xf32>
    // CHECK: "ttir.pow"
    %4 = stablehlo.power %3, %a : tensor<4x8xf32>
    // CHECK: "ttir.erf"
    %5 = chlo.erf %4 : tensor<4x8xf32> -> tensor<4x8xf32>
    return %5 : tensor<4x8xf32>
  }

  // CHECK-LABEL: func.func public @compare_select
  func.func public @compare_select(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %p: tensor<i1>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    // CHECK: %[[GT:.*]] = "ttir.gt"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %0 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    // CHECK: "ttir.where"(%[[GT]], %arg0, %arg1)
    %1 = stablehlo.select %0, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>
    // a scalar predicate is broadcast to the operands' shape first
    // CHECK: "ttir.reshape"(%arg2) <{shape = [1 : i32, 1 : i32]}>
    // CHECK: "ttir.broadcast"({{.*}}) <{broadcast_dimensions = array<i64: 4, 8>}>
    // CHECK: "ttir.where"
    %2 = stablehlo.select %p, %a, %b : tensor<i1>, tensor<4x8xf32>
    return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
  }

  // CHECK-LABEL: func.func public @logical_bitwise
  func.func public @logical_bitwise(%a: tensor<8xi1>, %b: tensor<8xi1>, %c: tensor<8xi32>, %d: tensor<8xi32>) -> (tensor<8xi1>, tensor<8xi32>) {
    // CHECK: "ttir.logical_and"
    %0 = stablehlo.and %a, %b : tensor<8xi1>
    // CHECK: "ttir.bitwise_xor"
    %1 = stablehlo.xor %c, %d : tensor<8xi32>
    // CHECK: "ttir.logical_not"
    %2 = stablehlo.not %0 : tensor<8xi1>
    return %2, %1 : tensor<8xi1>, tensor<8xi32>
  }

  // CHECK-LABEL: func.func public @clamp
  func.func public @clamp(%x: tensor<4xf32>, %lo: tensor<4xf32>) -> tensor<4xf32> {
    %six = stablehlo.constant dense<6.0> : tensor<f32>
    // bounds stay as given (a scalar bound broadcasts)
    // CHECK: "ttir.clamp_tensor"(%arg0, %arg1, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %0 = stablehlo.clamp %lo, %x, %six : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
