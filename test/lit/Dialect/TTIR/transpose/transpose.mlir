// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @transpose
// CHECK: %{{[0-9]+}} = "ttir.transpose"(%arg0) <{dim0 = -2 : si32, dim1 = -1 : si32}> : (tensor<4x32x64xf32>) -> tensor<4x64x32xf32>
// TTNN: "ttnn.permute"
// TTNN-SAME: #ttnn_layout
module {
  func.func @transpose(%arg0: tensor<4x32x64xf32>) -> tensor<4x64x32xf32> {
    %0 = "ttir.transpose"(%arg0) <{dim0 = -2 : si32, dim1 = -1 : si32}> : (tensor<4x32x64xf32>) -> tensor<4x64x32xf32>
    return %0 : tensor<4x64x32xf32>
  }
}
