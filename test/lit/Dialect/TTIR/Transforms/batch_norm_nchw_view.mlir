// RUN: ttmlir-opt --ttir-to-ttir-decomposition %s | FileCheck %s
// TTNN's batch norm reads NCHW normalized along dim 1: a batch norm along the last dim, with statistics already 4-d,
// is still viewed so (the dims before the channel merged into N) and viewed back.

// CHECK-LABEL: func.func @channels_last
// CHECK: %[[X:.*]] = "ttir.reshape"(%arg0) <{shape = [15 : i32, 6 : i32, 1 : i32, 1 : i32]}>
// CHECK: %[[N:.*]] = "ttir.batch_norm_inference"(%[[X]], {{.*}}) <{dimension = 1 : i32
// CHECK-SAME: -> tensor<15x6x1x1xbf16>
// CHECK: %[[Y:.*]] = "ttir.reshape"(%[[N]]) <{shape = [1 : i32, 3 : i32, 5 : i32, 6 : i32]}>
// CHECK: return %[[Y]]
func.func @channels_last(%x: tensor<1x3x5x6xbf16>, %s: tensor<1x1x1x6xbf16>, %o: tensor<1x1x1x6xbf16>, %m: tensor<1x1x1x6xbf16>, %v: tensor<1x1x1x6xbf16>) -> tensor<1x3x5x6xbf16> {
  %0 = "ttir.batch_norm_inference"(%x, %s, %o, %m, %v) <{dimension = 3 : i32, epsilon = 1.0e-05 : f32}> : (tensor<1x3x5x6xbf16>, tensor<1x1x1x6xbf16>, tensor<1x1x1x6xbf16>, tensor<1x1x1x6xbf16>, tensor<1x1x1x6xbf16>) -> tensor<1x3x5x6xbf16>
  return %0 : tensor<1x3x5x6xbf16>
}

// CHECK-LABEL: func.func @nchw_unchanged
// CHECK-NOT: ttir.reshape
// CHECK: "ttir.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4)
func.func @nchw_unchanged(%x: tensor<2x8x4x4xf32>, %s: tensor<1x8x1x1xf32>, %o: tensor<1x8x1x1xf32>, %m: tensor<1x8x1x1xf32>, %v: tensor<1x8x1x1xf32>) -> tensor<2x8x4x4xf32> {
  %0 = "ttir.batch_norm_inference"(%x, %s, %o, %m, %v) <{dimension = 1 : i32, epsilon = 1.0e-05 : f32}> : (tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>) -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}
