// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC

// ttir.to_layout writes into its destination operand, in upstream's custom format; when nothing changes
// it folds away.
// CHECK-LABEL: func.func @to_layout
// CHECK: %[[E:.*]] = ttir.empty() : tensor<32x64xf32>
// CHECK: ttir.to_layout %arg0, %[[E]] : tensor<32x64xf32> into tensor<32x64xf32> -> tensor<32x64xf32>
// TTNN-NOT: "ttir.to_layout"
// TTNN-NOT: "ttnn.to_tensor_spec"
// TTNN: return %arg0 : tensor<32x64xf32, #ttnn_layout>
// EXEC: PASS
module {
  func.func @to_layout(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = ttir.empty() : tensor<32x64xf32>
    %1 = ttir.to_layout %arg0, %0 : tensor<32x64xf32> into tensor<32x64xf32> -> tensor<32x64xf32>
    return %1 : tensor<32x64xf32>
  }
}
