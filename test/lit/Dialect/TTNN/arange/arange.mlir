// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @arange
// CHECK: %{{[0-9]+}} = "ttnn.arange"() <{dtype = #ttcore.supportedDataTypes<f32>, end = 32 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<32xf32>
module {
  func.func @arange() -> tensor<32xf32> {
    %0 = "ttnn.arange"() <{dtype = #ttcore.supportedDataTypes<f32>, end = 32 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<32xf32>
    return %0 : tensor<32xf32>
  }
}
