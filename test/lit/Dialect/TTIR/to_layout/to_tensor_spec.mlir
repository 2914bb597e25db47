// RUN: ttmlir-opt --ttcore-register-device --convert-ttir-to-ttnn %s | FileCheck %s

// A to_layout between laid-out tensors lowers to the aggregate ttnn.to_tensor_spec (broken down later by
// --ttnn-decompose-layouts), not to the narrow ttnn.to_layout.
#host = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x64xf32, #ttnn.buffer_type<system_memory>>>
#tiles = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>
// CHECK-LABEL: func.func @host_to_device
// CHECK: "ttnn.to_tensor_spec"(%arg0) : (tensor<32x64xf32, #{{.*}}>) -> tensor<32x64xbf16, #{{.*}}>
// CHECK-NOT: "ttnn.to_layout"
func.func @host_to_device(%arg0: tensor<32x64xf32, #host>) -> tensor<32x64xbf16, #tiles> {
  %0 = ttir.empty() : tensor<32x64xbf16, #tiles>
  %1 = ttir.to_layout %arg0, %0 : tensor<32x64xf32, #host> into tensor<32x64xbf16, #tiles> -> tensor<32x64xbf16, #tiles>
  return %1 : tensor<32x64xbf16, #tiles>
}
