// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

#dram = #ttnn.buffer_type<dram>
#wrong = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
func.func @memref_mismatch(%arg0: tensor<64x96xf32, #wrong>) -> tensor<64x96xf32, #wrong> {
  // expected-error @+1 {{'ttnn.relu' op operand #0 layout memref shape (2x2) does not match tensor shape (64x96): expected 2x3}}
  %0 = "ttnn.relu"(%arg0) : (tensor<64x96xf32, #wrong>) -> tensor<64x96xf32, #wrong>
  return %0 : tensor<64x96xf32, #wrong>
}

// -----

#dram = #ttnn.buffer_type<dram>
#rank3 = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 32 + d1, d2), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
func.func @rank_mismatch(%arg0: tensor<32x32xf32, #rank3>) -> tensor<32x32xf32, #rank3> {
  // expected-error @+1 {{layout map has 3 dimensions but the tensor has rank 2}}
  %0 = "ttnn.relu"(%arg0) : (tensor<32x32xf32, #rank3>) -> tensor<32x32xf32, #rank3>
  return %0 : tensor<32x32xf32, #rank3>
}

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
