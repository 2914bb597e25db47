// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% mesh-shape=1,2" %s | FileCheck %s
// RUN: not ttmlir-opt %S/Inputs/all_reduce_async_max.mlir 2>&1 | FileCheck %s --check-prefix=ERR

// A 2D all_reduce_async runs in 4D as all_reduce does.
// CHECK-LABEL: func.func @all_reduce_async
// CHECK: "ttnn.reshape"
// CHECK-SAME: -> tensor<1x1x64x128xbf16
// CHECK: "ttnn.all_reduce_async"
// CHECK-SAME: <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}>
// ERR: error: 'ttir.all_reduce_async' op Invalid reduction type for all reduce async op.
module {
  func.func @all_reduce_async(%arg0: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
    %0 = "ttir.all_reduce_async"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
    return %0 : tensor<64x128xbf16>
  }
}
