// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @zeros
// CHECK: %{{[0-9]+}} = "ttir.zeros"() <{shape = array<i32: 32, 64>}> : () -> tensor<32x64xf32>
module {
  func.func @zeros() -> tensor<32x64xf32> {
    %0 = "ttir.zeros"() <{shape = array<i32: 32, 64>}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
