// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// A layout whose memory layout, buffer and grid disagree is rejected where it is written (upstream's checks).
#system_memory = #ttnn.buffer_type<system_memory>
// expected-error @+1 {{Memory layout is not allowed for SystemMemory buffer type.}}
#host = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xf32, #system_memory>, <interleaved>>

// -----

// expected-error @+1 {{Memory layout is required for non-SystemMemory buffer type.}}
#l1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<l1>>>

// -----

// expected-error @+1 {{expected (1, 1) grid shape for dram buffer type with interleaved memory layout, got (2, 2)}}
#dram = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x2>, memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, <interleaved>>

// -----

// expected-error @+1 {{sharded TTNN layout (height_sharded) must carry a core_range_set}}
#sharded = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x1>, memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<l1>>, <height_sharded>>

// -----

func.func @bad_dtype_attr(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // expected-error @+1 {{'ttnn.add' op attribute 'dtype' failed to satisfy constraint: TTCore DataType attribute}}
  %0 = "ttnn.add"(%arg0, %arg0) <{dtype = f32}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}

// -----

func.func @broadcast(%arg0: tensor<32x32xf32>, %arg1: tensor<3x32xf32>) -> tensor<32x32xf32> {
  // expected-error @+1 {{'ttnn.add' op operand shape (3, 32) is not broadcast compatible with inferred operand shapes (32, 32)}}
  %0 = "ttnn.add"(%arg0, %arg1) : (tensor<32x32xf32>, tensor<3x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
