// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @key(%arg0: tensor<1x32x768xbf16>) -> (tensor<1x8x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>) {
  // expected-error @+1 {{'ttir.split_query_key_value_and_split_heads' op expected key output shape (1, 2, 64, 32), got (1, 2, 32, 64)}}
  %0, %1, %2 = "ttir.split_query_key_value_and_split_heads"(%arg0) <{num_heads = 8 : ui32, num_kv_heads = 2 : ui32, transpose_key = true}> : (tensor<1x32x768xbf16>) -> (tensor<1x8x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>)
  return %0, %1, %2 : tensor<1x8x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>
}

// -----
func.func @rank(%arg0: tensor<32x768xbf16>) -> (tensor<1x8x32x64xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x32x64xbf16>) {
  // expected-error @+1 {{'ttir.split_query_key_value_and_split_heads' op expected rank of input tensor is 3, got rank 2}}
  %0, %1, %2 = "ttir.split_query_key_value_and_split_heads"(%arg0) <{num_heads = 8 : ui32, num_kv_heads = 2 : ui32, transpose_key = true}> : (tensor<32x768xbf16>) -> (tensor<1x8x32x64xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x32x64xbf16>)
  return %0, %1, %2 : tensor<1x8x32x64xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x32x64xbf16>
}
