// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline --ttcore-unwrap-device-module --ttnn-tuplify-tensors="tuplify-input-if-empty=true" --ttnn-prepare-module-for-export %s | FileCheck %s

// The exported forward takes its input host row-major and the caller's device; the input is tilized on the host
// and moved to the device before the exp reads it.
// CHECK-DAG: #[[ROWS:.*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x96xf32, #system_memory>>
// CHECK-DAG: #[[TILES:.*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x3x!ttcore.tile<32x32, f32>, #system_memory>>
// CHECK: func.func @forward(%arg0: tuple<tensor<64x96xf32, #[[ROWS]]>> {emitpy.name = "input"}, %arg1: !ttnn.device {emitpy.name = "device"})
// CHECK: %[[X:.*]] = ttcore.get_tuple_element %arg0[0] : (tuple<tensor<64x96xf32, #[[ROWS]]>>) -> tensor<64x96xf32, #[[ROWS]]>
// CHECK-NEXT: %[[T:.*]] = "ttnn.to_layout"(%[[X]]) : (tensor<64x96xf32, #[[ROWS]]>) -> tensor<64x96xf32, #[[TILES]]>
// CHECK-NEXT: %[[D:.*]] = "ttnn.to_device"(%[[T]], %arg1)
// CHECK: "ttnn.exp"(%[[D]])
func.func @model(%x: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %0 = "ttir.exp"(%x) : (tensor<64x96xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}
