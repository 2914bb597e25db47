// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% optimization-level=1" %s | FileCheck %s --check-prefix=TTNN
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% enable-ttnn-decomposition-pass=false" %s | FileCheck %s --check-prefix=KEPT
// Heads whose size is whole tiles join in tt-metal's kernel; other sizes as a permute and a reshape.

// CHECK: "ttir.concatenate_heads"(%arg0) : (tensor<2x8x32x64xbf16>) -> tensor<2x32x512xbf16>
// TTNN-LABEL: func.func @tiled_heads
// TTNN: "ttnn.concatenate_heads"(%arg0)
// TTNN-LABEL: func.func @odd_heads
// TTNN-NOT: "ttnn.concatenate_heads"
// TTNN: "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 2, 1, 3>}>
// TTNN: "ttnn.reshape"{{.*}} -> tensor<1x197x768xbf16
// KEPT-LABEL: func.func @odd_heads
// KEPT: "ttnn.concatenate_heads"(%arg0)
func.func @tiled_heads(%arg0: tensor<2x8x32x64xbf16>) -> tensor<2x32x512xbf16> {
  %0 = "ttir.concatenate_heads"(%arg0) : (tensor<2x8x32x64xbf16>) -> tensor<2x32x512xbf16>
  return %0 : tensor<2x32x512xbf16>
}

func.func @odd_heads(%arg0: tensor<1x16x197x48xbf16>) -> tensor<1x197x768xbf16> {
  %0 = "ttir.concatenate_heads"(%arg0) : (tensor<1x16x197x48xbf16>) -> tensor<1x197x768xbf16>
  return %0 : tensor<1x197x768xbf16>
}
