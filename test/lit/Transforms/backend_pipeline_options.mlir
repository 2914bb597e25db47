// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=FUSED
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% enable-fusing-pass=false optimization-level=0 enable-const-eval=false enable-cpu-hoisted-const-eval=false" %s | FileCheck %s --check-prefix=UNFUSED
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=7" %s 2>&1 | FileCheck %s --check-prefix=OPTIMIZER
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="enable-const-eval=true enable-cpu-hoisted-const-eval=true" %s | FileCheck %s --check-prefix=FUSED

// FUSED: "ttnn.linear"
// FUSED-NOT: "ttnn.add"
// UNFUSED: "ttnn.matmul"
// UNFUSED: "ttnn.add"
// OPTIMIZER: error: optimization-level must be 0, 1 or 2, got 7
// (no argument is a parameter or constant: const-eval, on or off, leaves the function as it is)
// FUSED-NOT: load_cached
func.func @matmul_bias(%arg0: tensor<32x64xbf16>, %arg1: tensor<64x128xbf16>, %arg2: tensor<1x128xbf16>) -> tensor<32x128xbf16> {
  %0 = "ttir.matmul"(%arg0, %arg1) : (tensor<32x64xbf16>, tensor<64x128xbf16>) -> tensor<32x128xbf16>
  %1 = "ttir.add"(%0, %arg2) : (tensor<32x128xbf16>, tensor<1x128xbf16>) -> tensor<32x128xbf16>
  return %1 : tensor<32x128xbf16>
}
