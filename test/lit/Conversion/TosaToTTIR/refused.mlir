// RUN: not ttmlir-opt --split-input-file --convert-tosa-to-ttir %s 2>&1 | FileCheck %s
// Forms of TOSA ops no TTIR op computes are refused at the op, not computed wrongly.

func.func @shifted(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %s = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  // CHECK: refused.mlir:[[# @LINE + 1]]:8: error: 'tosa.mul' op conversion does not support shifted multiply
  %0 = tosa.mul %a, %b, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @zero_point(%a: tensor<4xi8>) -> tensor<4xi8> {
  %zp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  // CHECK: refused.mlir:[[# @LINE + 1]]:8: error: 'tosa.negate' op conversion does not support a non-zero input1_zp
  %0 = tosa.negate %a, %zp, %zp : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
