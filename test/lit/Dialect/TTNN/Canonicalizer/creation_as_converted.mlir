// RUN: ttmlir-opt --ttcore-register-device --canonicalize %s | FileCheck %s
#host = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x64xf32, #ttnn.buffer_type<system_memory>>>
#tile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>
#row = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x64xbf16, #ttnn.buffer_type<dram>>, <interleaved>>

// Ones made on the host and moved to the device: made on the device, in bf16 tiles.
// CHECK-LABEL: func.func @ones_to_device
// CHECK: %[[D:.*]] = "ttnn.get_device"
// CHECK: "ttnn.ones"(%[[D]]) <{dtype = #ttcore.supportedDataTypes<bf16>, layout = #ttnn.layout<tile>
// CHECK-NOT: to_tensor_spec
func.func @ones_to_device() -> tensor<32x64xbf16, #tile> {
  %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
  %1 = "ttnn.ones"() <{shape = #ttnn.shape<32x64>}> : () -> tensor<32x64xf32, #host>
  %2 = "ttnn.to_tensor_spec"(%1) : (tensor<32x64xf32, #host>) -> tensor<32x64xbf16, #tile>
  return %2 : tensor<32x64xbf16, #tile>
}

// Random values come from the device only: the move to the host stays.
// CHECK-LABEL: func.func @rand_to_host
// CHECK: "ttnn.rand"
// CHECK: "ttnn.to_tensor_spec"
func.func @rand_to_host() -> tensor<32x64xf32, #host> {
  %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
  %1 = "ttnn.rand"(%0) <{size = #ttnn.shape<32x64>}> : (!ttnn.device) -> tensor<32x64xbf16, #row>
  %2 = "ttnn.to_tensor_spec"(%1) : (tensor<32x64xbf16, #row>) -> tensor<32x64xf32, #host>
  return %2 : tensor<32x64xf32, #host>
}
