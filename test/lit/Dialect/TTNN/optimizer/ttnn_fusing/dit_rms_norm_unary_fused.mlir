// RUN: ttmlir-opt --ttcore-register-device --ttnn-fusing="enable-op-constraints=true" %s | FileCheck %s

// relu of an rms_norm, through a reshape: the norm's kernel applies it.
// CHECK-LABEL: func.func @relu_through_reshape
// CHECK: %[[F:.*]] = "ttnn.dit_rms_norm_unary_fused"(%arg0, %arg1) <{activation = "relu", epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (tensor<32x128xbf16>, tensor<128xbf16>) -> tensor<32x128xbf16>
// CHECK: %[[R:.*]] = "ttnn.reshape"(%[[F]])
// CHECK-NOT: "ttnn.relu"
// CHECK: return %[[R]]
func.func @relu_through_reshape(%x: tensor<32x128xbf16>, %w: tensor<128xbf16>) -> tensor<1x32x128xbf16> {
  %0 = "ttnn.rms_norm"(%x, %w) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<32x128xbf16>, tensor<128xbf16>) -> tensor<32x128xbf16>
  %1 = "ttnn.reshape"(%0) <{shape = [1 : i32, 32 : i32, 128 : i32]}> : (tensor<32x128xbf16>) -> tensor<1x32x128xbf16>
  %2 = "ttnn.relu"(%1) : (tensor<1x32x128xbf16>) -> tensor<1x32x128xbf16>
  return %2 : tensor<1x32x128xbf16>
}

// sigmoid is not among the kernel's activations.
// CHECK-LABEL: func.func @sigmoid
// CHECK: "ttnn.rms_norm"
// CHECK: "ttnn.sigmoid"
func.func @sigmoid(%x: tensor<32x128xbf16>) -> tensor<32x128xbf16> {
  %0 = "ttnn.rms_norm"(%x) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<32x128xbf16>) -> tensor<32x128xbf16>
  %1 = "ttnn.sigmoid"(%0) : (tensor<32x128xbf16>) -> tensor<32x128xbf16>
  return %1 : tensor<32x128xbf16>
}
