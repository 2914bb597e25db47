// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @zeros
// CHECK: %{{[0-9]+}} = "ttnn.zeros"() <{dtype = #ttcore.supportedDataTypes<bf16>, layout = #ttnn.layout<tile>, shape = #ttnn.shape<64x128>}> : () -> tensor<64x128xbf16>
module {
  func.func @zeros() -> tensor<64x128xbf16> {
    %0 = "ttnn.zeros"() <{dtype = #ttcore.supportedDataTypes<bf16>, layout = #ttnn.layout<tile>, shape = #ttnn.shape<64x128>}> : () -> tensor<64x128xbf16>
    return %0 : tensor<64x128xbf16>
  }
}
