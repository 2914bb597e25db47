// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @reshape
// CHECK: %{{[0-9]+}} = "ttir.reshape"(%arg0) <{shape = [128 : i32, 64 : i32]}> : (tensor<4x32x64xf32>) -> tensor<128x64xf32>
// TTNN: "ttnn.reshape"
// TTNN-SAME: #ttnn_layout
module {
  func.func @reshape(%arg0: tensor<4x32x64xf32>) -> tensor<128x64xf32> {
    %0 = "ttir.reshape"(%arg0) <{shape = [128 : i32, 64 : i32]}> : (tensor<4x32x64xf32>) -> tensor<128x64xf32>
    return %0 : tensor<128x64xf32>
  }
}
