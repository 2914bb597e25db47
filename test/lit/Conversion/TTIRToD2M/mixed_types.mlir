// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// An elementwise op mixing float operand types computes in its result's: the other operand cast first.

// CHECK-LABEL: func.func @mixed
// CHECK: d2m.tile_typecast{{.*}}(!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, bf16>
// CHECK: d2m.tile_mul{{.*}}(!ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
func.func @mixed(%a: tensor<32x64xf32>, %b: tensor<32x64xbf16>) -> tensor<32x64xbf16> {
  %0 = "ttir.multiply"(%a, %b) : (tensor<32x64xf32>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
  return %0 : tensor<32x64xbf16>
}
