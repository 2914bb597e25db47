// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @same_chip(%arg0: tensor<32x128xf32>, %arg1: tensor<32x128xf32>) -> tensor<32x128xf32> {
  // expected-error @+1 {{'ttnn.point_to_point' op Can't send/receive to the same device}}
  %0 = "ttnn.point_to_point"(%arg0, %arg1) <{receiver_coord = array<i64: 0, 1>, sender_coord = array<i64: 0, 1>}> : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
  return %0 : tensor<32x128xf32>
}

// -----
func.func @copy_reshapes(%arg0: tensor<32x128xf32>) -> tensor<128x32xf32> {
  // expected-error @+1 {{'ttnn.assign' op input and output tensor must have the same shape}}
  %0 = "ttnn.assign"(%arg0) : (tensor<32x128xf32>) -> tensor<128x32xf32>
  return %0 : tensor<128x32xf32>
}
