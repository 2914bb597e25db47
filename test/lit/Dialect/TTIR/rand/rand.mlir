// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @rand
// CHECK: %{{[0-9]+}} = "ttir.rand"() <{dtype = f32, high = 1.000000e+00 : f32, low = 0.000000e+00 : f32, seed = 0 : ui32, size = [32 : i32, 64 : i32]}> : () -> tensor<32x64xf32>
module {
  func.func @rand() -> tensor<32x64xf32> {
    %0 = "ttir.rand"() <{dtype = f32, high = 1.000000e+00 : f32, low = 0.000000e+00 : f32, seed = 0 : ui32, size = [32 : i32, 64 : i32]}> : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
