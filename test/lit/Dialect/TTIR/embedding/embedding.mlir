// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline --mlir-print-local-scope %s | FileCheck %s --check-prefix=ROWMAJOR

// CHECK-LABEL: func.func @embedding
// CHECK: %{{[0-9]+}} = "ttir.embedding"(%arg0, %arg1) : (tensor<32x16xsi32>, tensor<512x128xf32>) -> tensor<32x16x128xf32>
// TTNN: "ttnn.embedding"
// TTNN-SAME: #ttnn_layout
// The indices stay row-major on the device: the embedding reads them straight from ttnn.to_device.
// ROWMAJOR: %[[IDX:[0-9]+]] = "ttnn.to_device"(%arg0
// ROWMAJOR-NOT: "ttnn.to_layout"(%[[IDX]])
// ROWMAJOR: "ttnn.embedding"(%[[IDX]], %{{.*}}) : (tensor<32x16xsi32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x16xsi32, #ttnn.buffer_type<dram>>, <interleaved>>>
module {
  func.func @embedding(%arg0: tensor<32x16xsi32>, %arg1: tensor<512x128xf32>) -> tensor<32x16x128xf32> {
    %0 = "ttir.embedding"(%arg0, %arg1) : (tensor<32x16xsi32>, tensor<512x128xf32>) -> tensor<32x16x128xf32>
    return %0 : tensor<32x16x128xf32>
  }
}
