// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @to_device
// CHECK: %{{[0-9]+}} = "ttnn.to_device"(%arg0, %arg1) <{memory_config = #ttnn.memory_config<#dram, <interleaved>>}> : (tensor<64x128xf32>, !ttnn.device) -> tensor<64x128xf32>
module {
  func.func @to_device(%arg0: tensor<64x128xf32>, %arg1: !ttnn.device) -> tensor<64x128xf32> {
    %0 = "ttnn.to_device"(%arg0, %arg1) <{memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>}> : (tensor<64x128xf32>, !ttnn.device) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
