// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @squeeze
// CHECK: %{{[0-9]+}} = "ttir.squeeze"(%arg0) <{dim = 0 : si32}> : (tensor<1x32x64xf32>) -> tensor<32x64xf32>
// TTNN: "ttnn.reshape"
// TTNN-SAME: #ttnn_layout
module {
  func.func @squeeze(%arg0: tensor<1x32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.squeeze"(%arg0) <{dim = 0 : si32}> : (tensor<1x32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
