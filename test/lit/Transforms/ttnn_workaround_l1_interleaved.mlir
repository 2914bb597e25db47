// RUN: ttmlir-opt --ttcore-register-device --ttnn-workaround --mlir-print-local-scope %s | FileCheck %s
// A tensor the workarounds move into L1 interleaved gets upstream's per-core memref there: one row holding the
// whole volume on the 1x1 grid (24x40 = 960 elements, 24x8 = 192), not the DRAM layout's rows and columns.

#dram = #ttnn.buffer_type<dram>
#input = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 24 + d1 * 24 + d2, d3), <1x1>, memref<24x40xbf16, #dram>, <interleaved>>
#indices = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 24 + d1 * 24 + d2, d3), <1x1>, memref<24x8xui16, #dram>, <interleaved>>
#scores = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 24 + d1 * 24 + d2, d3), <1x1>, memref<24x8xbf16, #dram>, <interleaved>>
#mapping = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8xui16, #dram>, <interleaved>>
#out = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 24 + d1, d2), <1x1>, memref<24x40xbf16, #dram>, <interleaved>>
#out_idx = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 24 + d1, d2), <1x1>, memref<24x8xui16, #dram>, <interleaved>>
#out_sc = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 24 + d1, d2), <1x1>, memref<24x8xbf16, #dram>, <interleaved>>

// CHECK-LABEL: func.func @dispatch_inputs_to_l1
// CHECK: "ttnn.to_tensor_spec"(%arg0) {{.*}} -> tensor<1x1x24x40xbf16, #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<1x960xbf16, #ttnn.buffer_type<l1>>, <interleaved>>>
// CHECK: "ttnn.to_tensor_spec"(%arg1) {{.*}} -> tensor<1x1x24x8xui16, #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<1x192xui16, #ttnn.buffer_type<l1>>, <interleaved>>>
// CHECK: "ttnn.to_tensor_spec"(%arg2) {{.*}} -> tensor<1x1x24x8xbf16, #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<1x192xbf16, #ttnn.buffer_type<l1>>, <interleaved>>>
// CHECK: "ttnn.all_to_all_dispatch_metadata"
func.func @dispatch_inputs_to_l1(%arg0: tensor<1x1x24x40xbf16, #input>, %arg1: tensor<1x1x24x8xui16, #indices>,
                                 %arg2: tensor<1x1x24x8xbf16, #scores>, %arg3: tensor<8x8xui16, #mapping>)
    -> (tensor<1x24x40xbf16, #out>, tensor<1x24x8xui16, #out_idx>, tensor<1x24x8xbf16, #out_sc>) {
  %0, %1, %2 = "ttnn.all_to_all_dispatch_metadata"(%arg0, %arg1, %arg2, %arg3) <{cluster_axis = 0 : i64, num_devices = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>}> : (tensor<1x1x24x40xbf16, #input>, tensor<1x1x24x8xui16, #indices>, tensor<1x1x24x8xbf16, #scores>, tensor<8x8xui16, #mapping>) -> (tensor<1x24x40xbf16, #out>, tensor<1x24x8xui16, #out_idx>, tensor<1x24x8xbf16, #out_sc>)
  return %0, %1, %2 : tensor<1x24x40xbf16, #out>, tensor<1x24x8xui16, #out_idx>, tensor<1x24x8xbf16, #out_sc>
}
