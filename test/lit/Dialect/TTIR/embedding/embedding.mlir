// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline --mlir-print-local-scope %s | FileCheck %s --check-prefix=ROWMAJOR

// CHECK-LABEL: func.func @embedding
// CHECK: %{{[0-9]+}} = "ttir.embedding"(%arg0, %arg1) : (tensor<32x16xsi32>, tensor<512x128xf32>) -> tensor<32x16x128xf32>
// TTNN: "ttnn.embedding"
// TTNN-SAME: #ttnn_layout
// The kernel takes row-major u32 indices and a row-major bf16 table (upstream's workarounds): the tiled si32
// indices and f32 table are cast and untilized; the bf16 result is cast back to f32.
// ROWMAJOR: %[[CAST:[0-9]+]] = "ttnn.typecast"(%arg0)
// ROWMAJOR: %[[IDX:[0-9]+]] = "ttnn.to_layout"(%[[CAST]]) {{.*}} -> tensor<32x16xui32, #ttnn.ttnn_layout<{{.*}}memref<32x16xui32
// ROWMAJOR: %[[CASTW:[0-9]+]] = "ttnn.typecast"(%arg1)
// ROWMAJOR: %[[TABLE:[0-9]+]] = "ttnn.to_layout"(%[[CASTW]]) {{.*}} -> tensor<512x128xbf16, #ttnn.ttnn_layout<{{.*}}memref<512x128xbf16
// ROWMAJOR: %[[OUT:[0-9]+]] = "ttnn.embedding"(%[[IDX]], %[[TABLE]]) : (tensor<32x16xui32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x16xui32, #ttnn.buffer_type<dram>>, <interleaved>>>
// ROWMAJOR-SAME: -> tensor<32x16x128xbf16
// ROWMAJOR: "ttnn.typecast"(%[[OUT]])
// ROWMAJOR-SAME: -> tensor<32x16x128xf32
// A table of leading ones is read as [1, 1, N, D].
// TTNN-LABEL: func.func @embedding_6d_table
// TTNN: "ttnn.reshape"
// TTNN-SAME: shape = [1 : i32, 1 : i32, 10 : i32, 32 : i32]
// TTNN: "ttnn.embedding"
module {
  func.func @embedding(%arg0: tensor<32x16xsi32>, %arg1: tensor<512x128xf32>) -> tensor<32x16x128xf32> {
    %0 = "ttir.embedding"(%arg0, %arg1) : (tensor<32x16xsi32>, tensor<512x128xf32>) -> tensor<32x16x128xf32>
    return %0 : tensor<32x16x128xf32>
  }
  func.func @embedding_6d_table(%ids: tensor<2x4xui32>, %table: tensor<1x1x1x1x10x32xbf16>) -> tensor<2x4x32xbf16> {
    %0 = "ttir.embedding"(%ids, %table) : (tensor<2x4xui32>, tensor<1x1x1x1x10x32xbf16>) -> tensor<2x4x32xbf16>
    return %0 : tensor<2x4x32xbf16>
  }
}
