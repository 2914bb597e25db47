// RUN: ttmlir-opt --ttir-decompose-composites %s | FileCheck %s
// batch_norm_inference written out for backends without a batch norm kernel: the statistics viewed along the
// normalized dimension, the input centred on the mean, then scaled by scale * rsqrt(variance + eps) and offset.

// CHECK-LABEL: func.func @channels_first
func.func @channels_first(%x: tensor<2x8x4x4xf32>, %s: tensor<8xf32>, %o: tensor<8xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  // CHECK: %[[S:.*]] = "ttir.reshape"(%arg1) <{shape = [1 : i32, 8 : i32, 1 : i32, 1 : i32]}>
  // CHECK: %[[O:.*]] = "ttir.reshape"(%arg2)
  // CHECK: %[[M:.*]] = "ttir.reshape"(%arg3)
  // CHECK: %[[V:.*]] = "ttir.reshape"(%arg4)
  // CHECK: %[[E:.*]] = "ttir.full"() <{fill_value = 9.99999974E-6 : f32
  // CHECK: %[[VE:.*]] = "ttir.add"(%[[V]], %[[E]])
  // CHECK: %[[R:.*]] = "ttir.rsqrt"(%[[VE]]) : (tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  // CHECK: %[[A:.*]] = "ttir.multiply"(%[[S]], %[[R]])
  // CHECK: %[[C:.*]] = "ttir.subtract"(%arg0, %[[M]]) : (tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32>) -> tensor<2x8x4x4xf32>
  // CHECK: %[[Y:.*]] = "ttir.multiply"(%[[C]], %[[A]])
  // CHECK: %[[Z:.*]] = "ttir.add"(%[[Y]], %[[O]])
  // CHECK: return %[[Z]]
  // CHECK-NOT: batch_norm
  %0 = "ttir.batch_norm_inference"(%x, %s, %o, %m, %v) <{dimension = 1 : i32, epsilon = 1.0e-05 : f32}> : (tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}

// Statistics already 4-d along the last dim keep their shape.
// CHECK-LABEL: func.func @channels_last
func.func @channels_last(%x: tensor<1x3x5x6xbf16>, %s: tensor<1x1x1x6xbf16>, %o: tensor<1x1x1x6xbf16>, %m: tensor<1x1x1x6xbf16>, %v: tensor<1x1x1x6xbf16>) -> tensor<1x3x5x6xbf16> {
  // CHECK-NOT: "ttir.reshape"
  // CHECK: "ttir.add"(%arg4,
  // CHECK: "ttir.subtract"(%arg0, %arg3) : (tensor<1x3x5x6xbf16>, tensor<1x1x1x6xbf16>) -> tensor<1x3x5x6xbf16>
  %0 = "ttir.batch_norm_inference"(%x, %s, %o, %m, %v) <{dimension = 3 : i32, epsilon = 1.0e-05 : f32}> : (tensor<1x3x5x6xbf16>, tensor<1x1x1x6xbf16>, tensor<1x1x1x6xbf16>, tensor<1x1x1x6xbf16>, tensor<1x1x1x6xbf16>) -> tensor<1x3x5x6xbf16>
  return %0 : tensor<1x3x5x6xbf16>
}
