// RUN: ttmlir-opt --ttnn-force-final-deallocs %s | FileCheck %s
#l2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>
#l3 = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 64 + d1, d2), <1x1>, memref<2x4x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>
#w = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>

// The view's deallocate comes last: it frees the shared buffer; the other is dropped.
// CHECK-LABEL: func.func @view_freed_last
// CHECK-NOT: "ttnn.deallocate"(%0)
// CHECK: "ttnn.deallocate"(%1) <{force = true}>
// A reshape that regroups rows is a copy: each buffer keeps its own deallocate.
// CHECK-LABEL: func.func @copy_kept
// CHECK: "ttnn.deallocate"(%0) <{force = false}>
// CHECK: "ttnn.deallocate"(%1) <{force = false}>
func.func @view_freed_last(%a: tensor<64x128xbf16, #l2>) -> tensor<1x64x128xbf16, #l3> {
  %0 = "ttnn.add"(%a, %a) : (tensor<64x128xbf16, #l2>, tensor<64x128xbf16, #l2>) -> tensor<64x128xbf16, #l2>
  %1 = "ttnn.reshape"(%0) <{shape = [1 : i32, 64 : i32, 128 : i32]}> : (tensor<64x128xbf16, #l2>) -> tensor<1x64x128xbf16, #l3>
  %2 = "ttnn.add"(%1, %1) : (tensor<1x64x128xbf16, #l3>, tensor<1x64x128xbf16, #l3>) -> tensor<1x64x128xbf16, #l3>
  "ttnn.deallocate"(%0) <{force = false}> : (tensor<64x128xbf16, #l2>) -> ()
  "ttnn.deallocate"(%1) <{force = false}> : (tensor<1x64x128xbf16, #l3>) -> ()
  return %2 : tensor<1x64x128xbf16, #l3>
}
func.func @copy_kept(%a: tensor<64x128xbf16, #l2>) -> tensor<128x64xbf16, #w> {
  %0 = "ttnn.add"(%a, %a) : (tensor<64x128xbf16, #l2>, tensor<64x128xbf16, #l2>) -> tensor<64x128xbf16, #l2>
  %1 = "ttnn.reshape"(%0) <{shape = [128 : i32, 64 : i32]}> : (tensor<64x128xbf16, #l2>) -> tensor<128x64xbf16, #w>
  %2 = "ttnn.add"(%1, %1) : (tensor<128x64xbf16, #w>, tensor<128x64xbf16, #w>) -> tensor<128x64xbf16, #w>
  "ttnn.deallocate"(%0) <{force = false}> : (tensor<64x128xbf16, #l2>) -> ()
  "ttnn.deallocate"(%1) <{force = false}> : (tensor<128x64xbf16, #w>) -> ()
  return %2 : tensor<128x64xbf16, #w>
}
