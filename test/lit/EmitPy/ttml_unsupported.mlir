// RUN: not ttmlir-opt --ttir-to-emitpy-pipeline %s 2>&1 | FileCheck %s
// ttml binds its fused training ops in C++ only: generated Python cannot call them.

func.func @step(%q: tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16> {
  // CHECK: error: failed to legalize operation 'ttnn.sdpa_fw'
  %0 = "ttir.sdpa_fw"(%q, %q, %q) : (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16>
  return %0 : tensor<1x2x32x64xbf16>
}
