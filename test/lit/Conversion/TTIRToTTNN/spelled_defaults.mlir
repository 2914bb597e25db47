// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s
// Attributes left at their defaults in TTIR are spelled out on the TTNN op, as upstream's patterns pass them.

// CHECK-LABEL: func.func @defaults
// CHECK: "ttnn.rand"
// CHECK-SAME: high = 1.000000e+00 : f32, layout = #ttnn.layout<tile>, low = 0.000000e+00 : f32
// CHECK-SAME: seed = 0 : ui32, size = #ttnn.shape<32x64>
// CHECK: "ttnn.softmax"
// CHECK-SAME: dimension = 1 : si32, numericStable = false
func.func @defaults() -> tensor<32x64xbf16> {
  %0 = "ttir.rand"() <{size = [32 : i32, 64 : i32]}> : () -> tensor<32x64xbf16>
  %1 = "ttir.softmax"(%0) <{dimension = 1 : si32}> : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
  return %1 : tensor<32x64xbf16>
}
