// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @argmax
// CHECK: %{{[0-9]+}} = "ttir.argmax"(%arg0) <{dim_arg = [2 : i32], keep_dim = false}> : (tensor<4x32x64xf32>) -> tensor<4x32xsi32>
// TTNN: "ttnn.argmax"
// TTNN-SAME: #ttnn_layout
module {
  func.func @argmax(%arg0: tensor<4x32x64xf32>) -> tensor<4x32xsi32> {
    %0 = "ttir.argmax"(%arg0) <{dim_arg = [2 : i32], keep_dim = false}> : (tensor<4x32x64xf32>) -> tensor<4x32xsi32>
    return %0 : tensor<4x32xsi32>
  }
}
