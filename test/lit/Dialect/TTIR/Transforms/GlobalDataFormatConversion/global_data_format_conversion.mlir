// RUN: ttmlir-opt --ttir-global-data-format-conversion %s | FileCheck %s
// RUN: ttmlir-opt --ttir-global-data-format-conversion="target-format=bfp_bf8" %s | FileCheck %s --check-prefix=BFP8
// RUN: not ttmlir-opt --ttir-global-data-format-conversion="target-format=fp8" %s 2>&1 | FileCheck %s --check-prefix=BAD

// The signature keeps f32; inside, float tensors are bf16 (the default), integer ones stay, constants are cast.
// CHECK-LABEL: func.func @mixed(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xsi32>) -> (tensor<32x64xf32>, tensor<32x64xsi32>)
// CHECK: %[[X:.*]] = "ttir.typecast"(%arg0) <{conservative_folding = false}> : (tensor<32x64xf32>) -> tensor<32x64xbf16>
// CHECK: %[[C:.*]] = "ttir.constant"() <{value = dense<1.500000e+00> : tensor<32x64xf32>}>
// CHECK: %[[CB:.*]] = "ttir.typecast"(%[[C]]) <{conservative_folding = false}> : (tensor<32x64xf32>) -> tensor<32x64xbf16>
// CHECK: %[[E:.*]] = "ttir.exp"(%[[X]]) : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
// CHECK: %[[M:.*]] = "ttir.multiply"(%[[E]], %[[CB]]) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
// CHECK: %[[N:.*]] = "ttir.neg"(%arg1) : (tensor<32x64xsi32>) -> tensor<32x64xsi32>
// CHECK: %[[OUT:.*]] = "ttir.typecast"(%[[M]]) <{conservative_folding = false}> : (tensor<32x64xbf16>) -> tensor<32x64xf32>
// CHECK: return %[[OUT]], %[[N]] : tensor<32x64xf32>, tensor<32x64xsi32>
// BFP8: "ttir.exp"({{.*}}) : (tensor<32x64x!ttcore.tile<32x32, bfp_bf8>>) -> tensor<32x64x!ttcore.tile<32x32, bfp_bf8>>
// BAD: error: invalid target-format 'fp8' for ttir-global-data-format-conversion: expected one of f32, bf16, bfp_bf8
func.func @mixed(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xsi32>) -> (tensor<32x64xf32>, tensor<32x64xsi32>) {
  %c = "ttir.constant"() <{value = dense<1.5> : tensor<32x64xf32>}> : () -> tensor<32x64xf32>
  %0 = "ttir.exp"(%arg0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %1 = "ttir.multiply"(%0, %c) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %2 = "ttir.neg"(%arg1) : (tensor<32x64xsi32>) -> tensor<32x64xsi32>
  return %1, %2 : tensor<32x64xf32>, tensor<32x64xsi32>
}
