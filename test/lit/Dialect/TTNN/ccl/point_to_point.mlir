// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// CHECK-LABEL: func.func @exchange
// CHECK: %[[COPY:.*]] = "ttnn.assign"(%arg0) : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
// CHECK: "ttnn.point_to_point"(%arg0, %[[COPY]]) <{receiver_coord = array<i64: 0, 1>, sender_coord = array<i64: 0, 0>}>
func.func @exchange(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32> {
  %0 = "ttnn.assign"(%arg0) : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
  %1 = "ttnn.point_to_point"(%arg0, %0) <{receiver_coord = array<i64: 0, 1>, sender_coord = array<i64: 0, 0>}> : (tensor<1x1x32x128xf32>, tensor<1x1x32x128xf32>) -> tensor<1x1x32x128xf32>
  return %1 : tensor<1x1x32x128xf32>
}
