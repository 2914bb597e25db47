// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @permute
// CHECK: %{{[0-9]+}} = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32>
// TTNN: "ttnn.permute"
// TTNN-SAME: #ttnn_layout
module {
  func.func @permute(%arg0: tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32> {
    %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x4x32x64xf32>) -> tensor<1x32x4x64xf32>
    return %0 : tensor<1x32x4x64xf32>
  }
}
