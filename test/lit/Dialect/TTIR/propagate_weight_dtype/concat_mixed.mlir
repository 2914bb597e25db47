// RUN: ttmlir-opt --ttir-propagate-weight-dtype --verify-diagnostics %s | FileCheck %s
// RUN: ttmlir-opt --ttir-propagate-weight-dtype %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN

// Weights joined with different dtype requests: the matmul takes the most precise, and says so (a warning: the
// output is still written).
// CHECK: "ttir.matmul"(%arg0, %{{.*}}) <{{.*}}> {ttcore.weight_dtype = "bfp_bf8"}
// WARN: warning: fusing matmuls with differing weight dtype overrides (bfp_bf4, bfp_bf8): using bfp_bf8
func.func @joined(%arg0: tensor<32x64xbf16>, %a: tensor<64x32xbf16> {ttcore.weight_dtype = "bfp_bf4"},
                  %b: tensor<64x32xbf16> {ttcore.weight_dtype = "bfp_bf8"}) -> tensor<32x64xbf16> {
  %0 = "ttir.concat"(%a, %b) <{dim = 1 : si32}> : (tensor<64x32xbf16>, tensor<64x32xbf16>) -> tensor<64x64xbf16>
  // expected-warning @+1 {{fusing matmuls with differing weight dtype overrides}}
  %1 = "ttir.matmul"(%arg0, %0) : (tensor<32x64xbf16>, tensor<64x64xbf16>) -> tensor<32x64xbf16>
  return %1 : tensor<32x64xbf16>
}
