// RUN: ttmlir-opt --verify-diagnostics %s

func.func @to_memory_config(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.to_memory_config' op requires a single operand}}
  %0 = "ttnn.to_memory_config"(%arg0, %arg1) <{memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <interleaved>>}> : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
