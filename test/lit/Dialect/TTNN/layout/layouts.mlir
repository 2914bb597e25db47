// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK: #dram = #ttnn.buffer_type<dram>
// CHECK: #l1 = #ttnn.buffer_type<l1>
// CHECK: #ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 128 + d1, d2), <1x1>, memref<128x2880xbf16, #dram>, <interleaved>>
// CHECK: #ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,7)>]>>
// CHECK: "ttnn.to_memory_config"(%arg1) : (tensor<256x256xbf16, #ttnn_layout1>) -> tensor<256x256xbf16, #ttnn_layout2>
// CHECK: "ttnn.zeros"(%arg2) <{memory_config = #ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0,0), (7,7)>]>, <32x32>, <row_major>>>, shape = #ttnn.shape<256x256>}>
#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#disp = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 128 + d1, d2), <1x1>, memref<128x2880xbf16, #dram>, <interleaved>>
#sharded = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (7,7)>]>>
#interleaved = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @f(%arg0: tensor<1x128x2880xbf16, #disp>, %arg1: tensor<256x256xbf16, #sharded>, %arg2: !ttnn.device) -> tensor<1x128x2880xbf16, #disp> {
    %0 = "ttnn.to_memory_config"(%arg1) : (tensor<256x256xbf16, #sharded>) -> tensor<256x256xbf16, #interleaved>
    %1 = "ttnn.zeros"(%arg2) <{shape = #ttnn.shape<256x256>, memory_config = #ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0,0), (7,7)>]>, <32x32>, <row_major>>>}> : (!ttnn.device) -> tensor<256x256xbf16, #sharded>
    return %arg0 : tensor<1x128x2880xbf16, #disp>
  }
}
