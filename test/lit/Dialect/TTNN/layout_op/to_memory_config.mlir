// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @to_memory_config
// CHECK: %{{[0-9]+}} = "ttnn.to_memory_config"(%arg0) <{memory_config = #ttnn.memory_config<#l1, <interleaved>>}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
module {
  func.func @to_memory_config(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttnn.to_memory_config"(%arg0) <{memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <interleaved>>}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
