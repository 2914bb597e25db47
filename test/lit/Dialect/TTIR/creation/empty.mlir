// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @empty
// CHECK: %{{[0-9]+}} = "ttir.empty"() : () -> tensor<32x64xf32>
module {
  func.func @empty() -> tensor<32x64xf32> {
    %0 = "ttir.empty"() : () -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
