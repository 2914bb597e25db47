// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @hidden(%arg0: tensor<1x8x32x64xbf16>) -> tensor<1x32x256xbf16> {
  // expected-error @+1 {{'ttir.concatenate_heads' op expected output hidden dimension to be num_heads * head_size = 512, got 256}}
  %0 = "ttir.concatenate_heads"(%arg0) : (tensor<1x8x32x64xbf16>) -> tensor<1x32x256xbf16>
  return %0 : tensor<1x32x256xbf16>
}

// -----
func.func @rank(%arg0: tensor<8x32x64xbf16>) -> tensor<1x32x512xbf16> {
  // expected-error @+1 {{'ttir.concatenate_heads' op expected rank of input tensor is 4, got rank 3}}
  %0 = "ttir.concatenate_heads"(%arg0) : (tensor<8x32x64xbf16>) -> tensor<1x32x512xbf16>
  return %0 : tensor<1x32x512xbf16>
}
