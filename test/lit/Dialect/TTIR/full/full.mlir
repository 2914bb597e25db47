// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @full
// CHECK: %{{[0-9]+}} = "ttir.full"() <{fill_value = 3.500000e+00 : f32, shape = array<i32: 32, 64>}> : () -> tensor<32x64xf32>
module {
  func.func @full() -> tensor<32x64xf32> {
    %0 = "ttir.full"() <{fill_value = 3.500000e+00 : f32, shape = array<i32: 32, 64>}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
