// RUN: ttmlir-opt --convert-tosa-to-ttir %s | FileCheck %s
// Elementwise TOSA ops map one to one; quantization operands (mul's shift, negate's zero points) must be zeros
// and are dropped, their constants left for dead-code elimination.

func.func @chain(%x: tensor<4x8xf32>, %y: tensor<1x8xf32>, %p: tensor<4x8xi1>) -> tensor<4x8xbf16> {
  // CHECK-LABEL: func.func @chain
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // CHECK: %[[SUM:[0-9]+]] = "ttir.add"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %0 = tosa.add %x, %y : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[PRODUCT:[0-9]+]] = "ttir.multiply"(%[[SUM]], %arg0)
  %1 = tosa.mul %0, %x, %shift : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  // CHECK: %[[NEG:[0-9]+]] = "ttir.neg"(%[[PRODUCT]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.negate %1, %zp, %zp : (tensor<4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8xf32>
  // CHECK: %[[CLAMPED:[0-9]+]] = "ttir.clamp_scalar"(%[[NEG]]) <{max = 6.000000e+00 : f32, min = -1.000000e+00 : f32}>
  %3 = tosa.clamp %2 {min_val = -1.0 : f32, max_val = 6.0 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[PICKED:[0-9]+]] = "ttir.where"(%arg2, %[[CLAMPED]], %arg0)
  %4 = tosa.select %p, %3, %x : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[T:[0-9]+]] = "ttir.tanh"(%[[PICKED]])
  %5 = tosa.tanh %4 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[CAST:[0-9]+]] = "ttir.typecast"(%[[T]]) <{conservative_folding = false}> : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  %6 = tosa.cast %5 : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  // CHECK: return %[[CAST]] : tensor<4x8xbf16>
  return %6 : tensor<4x8xbf16>
}

func.func @compare(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> tensor<4x8xi1> {
  // CHECK-LABEL: func.func @compare
  // CHECK: %[[GE:[0-9]+]] = "ttir.ge"(%arg0, %arg1) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
  %0 = tosa.greater_equal %a, %b : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
  // CHECK: %[[EQ:[0-9]+]] = "ttir.eq"(%arg0, %arg1)
  %1 = tosa.equal %a, %b : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
  // CHECK: "ttir.logical_xor"(%[[GE]], %[[EQ]]) : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  %2 = tosa.logical_xor %0, %1 : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  return %2 : tensor<4x8xi1>
}
