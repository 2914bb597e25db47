// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline --mlir-print-local-scope %s | FileCheck %s --check-prefix=ROWMAJOR

// CHECK-LABEL: func.func @embedding
// CHECK: %{{[0-9]+}} = "ttir.embedding"(%arg0, %arg1) : (tensor<32x16xsi32>, tensor<512x128xf32>) -> tensor<32x16x128xf32>
// TTNN: "ttnn.embedding"
// TTNN-SAME: #ttnn_layout
// The kernel takes row-major u32 indices and a bf16 table (upstream's workarounds): the tiled si32 indices
// are cast and untilized; the bf16 result is cast back to f32.
// ROWMAJOR: %[[CAST:[0-9]+]] = "ttnn.typecast"(%arg0)
// ROWMAJOR: %[[IDX:[0-9]+]] = "ttnn.to_layout"(%[[CAST]]) {{.*}} -> tensor<32x16xui32, #ttnn.ttnn_layout<{{.*}}memref<32x16xui32
// ROWMAJOR: %[[TABLE:[0-9]+]] = "ttnn.typecast"(%{{.*}})
// ROWMAJOR: %[[OUT:[0-9]+]] = "ttnn.embedding"(%[[IDX]], %[[TABLE]]) : (tensor<32x16xui32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x16xui32, #ttnn.buffer_type<dram>>, <interleaved>>>
// ROWMAJOR-SAME: -> tensor<32x16x128xbf16
// ROWMAJOR: "ttnn.typecast"(%[[OUT]])
// ROWMAJOR-SAME: -> tensor<32x16x128xf32
module {
  func.func @embedding(%arg0: tensor<32x16xsi32>, %arg1: tensor<512x128xf32>) -> tensor<32x16x128xf32> {
    %0 = "ttir.embedding"(%arg0, %arg1) : (tensor<32x16xsi32>, tensor<512x128xf32>) -> tensor<32x16x128xf32>
    return %0 : tensor<32x16x128xf32>
  }
}
