// RUN: ttmlir-opt --verify-diagnostics %s

func.func @empty(%arg0: !ttnn.device, %arg1: !ttnn.device) -> tensor<64x128xf32> {
  // expected-error @+1 {{'ttnn.empty' op requires a single operand}}
  %0 = "ttnn.empty"(%arg0, %arg1) <{dtype = #ttcore.supportedDataTypes<f32>, layout = #ttnn.layout<tile>, memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, shape = #ttnn.shape<64x128>}> : (!ttnn.device, !ttnn.device) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
