// RUN: ttmlir-opt %s | FileCheck %s
// A DRAM width-sharded layout spreads its shards over the DRAM banks; its core ranges, however they are
// spaced or spelled (short or full #ttnn.core_range_set), print back in the one short form.

// CHECK: #[[WS:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}<1x6>, memref<1x2x!ttcore.tile<32x32, bf16>, #dram>, <width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (5,0)>]>>
// CHECK: #[[HS:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}<4x1>, memref<2x1x!ttcore.tile<32x32, bf16>, #dram>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (3,0)>]>>
#dram = #ttnn.buffer_type<dram>
#width = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x6>, memref<1x2x!ttcore.tile<32x32, bf16>, #dram>, <width_sharded>,
    core_ranges = <[#ttnn.core_range<( 0 , 0 ), (5, 0)>]>>
#height = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <4x1>, memref<2x1x!ttcore.tile<32x32, bf16>, #dram>, <height_sharded>,
    core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0, 0), (3, 0)>]>>
module {
  // CHECK-LABEL: func.func @relu_on_dram_shards
  // CHECK-SAME: tensor<32x384xbf16, #[[WS]]>, %{{.*}}: tensor<256x32xbf16, #[[HS]]>
  func.func @relu_on_dram_shards(%arg0: tensor<32x384xbf16, #width>, %arg1: tensor<256x32xbf16, #height>) -> tensor<32x384xbf16, #width> {
    %0 = "ttnn.relu"(%arg0) : (tensor<32x384xbf16, #width>) -> tensor<32x384xbf16, #width>
    return %0 : tensor<32x384xbf16, #width>
  }
}
