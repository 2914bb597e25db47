// RUN: ttmlir-opt --ttir-quant-dequant-conversion %s | FileCheck %s

!q8 = !quant.uniform<i8:f32, 0.5>
!q8b = !quant.uniform<i8:f32, 0.25>

// An op without a quantized form keeps its float input; a quantize/dequantize pair in the dequantize's type follows.
// CHECK-LABEL: func.func @pair_after_relu
// CHECK: %[[Q:.*]] = "ttir.quantize"(%arg0)
// CHECK: %[[DQ:.*]] = "ttir.dequantize"(%[[Q]])
// CHECK: %[[R:.*]] = "ttir.relu"(%[[DQ]])
// CHECK: %[[Q2:.*]] = "ttir.quantize"(%[[R]]) : (tensor<4x32xf32>) -> tensor<4x32x!quant.uniform<i8:f32, 5.000000e-01>>
// CHECK: %[[DQ2:.*]] = "ttir.dequantize"(%[[Q2]])
// CHECK: return %[[DQ2]]
func.func @pair_after_relu(%arg0: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = "ttir.quantize"(%arg0) : (tensor<4x32xf32>) -> tensor<4x32x!q8>
  %1 = "ttir.dequantize"(%0) : (tensor<4x32x!q8>) -> tensor<4x32xf32>
  %2 = "ttir.relu"(%1) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  return %2 : tensor<4x32xf32>
}

// An add of one quantized type runs on the stored values; a float operand is quantized to that type.
// CHECK-LABEL: func.func @add_in_one_type
// CHECK: %[[A:.*]] = "ttir.quantize"(%arg0)
// CHECK: %[[B:.*]] = "ttir.quantize"(%arg1) : (tensor<4x32xf32>) -> tensor<4x32x!quant.uniform<i8:f32, 5.000000e-01>>
// CHECK: %[[S:.*]] = "ttir.add"(%[[A]], %[[B]]) : (tensor<4x32x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<4x32x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<4x32x!quant.uniform<i8:f32, 5.000000e-01>>
// CHECK: %[[D:.*]] = "ttir.dequantize"(%[[S]]) : (tensor<4x32x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<4x32xf32>
// CHECK: return %[[D]]
func.func @add_in_one_type(%arg0: tensor<4x32xf32>, %arg1: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = "ttir.quantize"(%arg0) : (tensor<4x32xf32>) -> tensor<4x32x!q8>
  %1 = "ttir.dequantize"(%0) : (tensor<4x32x!q8>) -> tensor<4x32xf32>
  %2 = "ttir.add"(%1, %arg1) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  return %2 : tensor<4x32xf32>
}

// Operands of two quantized types: the add is left as it is.
// CHECK-LABEL: func.func @add_of_two_types
// CHECK: "ttir.dequantize"
// CHECK: "ttir.dequantize"
// CHECK: "ttir.add"(%{{.*}}, %{{.*}}) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK-NOT: "ttir.quantize"
func.func @add_of_two_types(%arg0: tensor<4x32xf32>, %arg1: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = "ttir.quantize"(%arg0) : (tensor<4x32xf32>) -> tensor<4x32x!q8>
  %1 = "ttir.dequantize"(%0) : (tensor<4x32x!q8>) -> tensor<4x32xf32>
  %2 = "ttir.quantize"(%arg1) : (tensor<4x32xf32>) -> tensor<4x32x!q8b>
  %3 = "ttir.dequantize"(%2) : (tensor<4x32x!q8b>) -> tensor<4x32xf32>
  %4 = "ttir.add"(%1, %3) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  return %4 : tensor<4x32xf32>
}

// A dequantize read twice stays where it is.
// CHECK-LABEL: func.func @shared_dequantize
// CHECK: %[[DQ:.*]] = "ttir.dequantize"
// CHECK: "ttir.relu"(%[[DQ]])
// CHECK-NOT: "ttir.quantize"
func.func @shared_dequantize(%arg0: tensor<4x32xf32>) -> (tensor<4x32xf32>, tensor<4x32xf32>) {
  %0 = "ttir.quantize"(%arg0) : (tensor<4x32xf32>) -> tensor<4x32x!q8>
  %1 = "ttir.dequantize"(%0) : (tensor<4x32x!q8>) -> tensor<4x32xf32>
  %2 = "ttir.relu"(%1) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  return %1, %2 : tensor<4x32xf32>, tensor<4x32xf32>
}

// A max pool runs on the quantized values; the quantize after it to the same type goes, to another one it is a
// requantize.
// CHECK-LABEL: func.func @max_pool_then_quantize
// CHECK: %[[Q:.*]] = "ttir.quantize"(%arg0)
// CHECK: %[[P:.*]] = "ttir.max_pool2d"(%[[Q]]) {{.*}} -> tensor<1x8x8x32x!quant.uniform<i8:f32, 5.000000e-01>>
// CHECK-NOT: "ttir.dequantize"
// CHECK: %[[R:.*]] = "ttir.requantize"(%[[P]]) : (tensor<1x8x8x32x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<1x8x8x32x!quant.uniform<i8:f32, 2.500000e-01>>
// CHECK: return %[[P]], %[[R]]
func.func @max_pool_then_quantize(%arg0: tensor<1x16x16x32xf32>) -> (tensor<1x8x8x32x!q8>, tensor<1x8x8x32x!q8b>) {
  %0 = "ttir.quantize"(%arg0) : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32x!q8>
  %1 = "ttir.dequantize"(%0) : (tensor<1x16x16x32x!q8>) -> tensor<1x16x16x32xf32>
  %2 = "ttir.max_pool2d"(%1) <{kernel = array<i32: 2, 2>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, ceil_mode = false}> : (tensor<1x16x16x32xf32>) -> tensor<1x8x8x32xf32>
  %3 = "ttir.quantize"(%2) : (tensor<1x8x8x32xf32>) -> tensor<1x8x8x32x!q8>
  %4 = "ttir.quantize"(%2) : (tensor<1x8x8x32xf32>) -> tensor<1x8x8x32x!q8b>
  return %3, %4 : tensor<1x8x8x32x!q8>, tensor<1x8x8x32x!q8b>
}

// An average pool would truncate a mean of stored integers: it stays in floats, with the pair after it.
// CHECK-LABEL: func.func @avg_pool_pair
// CHECK: "ttir.avg_pool2d"({{.*}}) {{.*}} : (tensor<1x16x16x32xf32>) -> tensor<1x8x8x32xf32>
// CHECK-NEXT: "ttir.quantize"
// CHECK-NEXT: "ttir.dequantize"
func.func @avg_pool_pair(%arg0: tensor<1x16x16x32xf32>) -> tensor<1x8x8x32xf32> {
  %0 = "ttir.quantize"(%arg0) : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32x!q8>
  %1 = "ttir.dequantize"(%0) : (tensor<1x16x16x32x!q8>) -> tensor<1x16x16x32xf32>
  %2 = "ttir.avg_pool2d"(%1) <{kernel = array<i32: 2, 2>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, ceil_mode = false, count_include_pad = true}> : (tensor<1x16x16x32xf32>) -> tensor<1x8x8x32xf32>
  return %2 : tensor<1x8x8x32xf32>
}

// A conv2d of 8-bit input and per-channel weight accumulates in i32, each output channel's scale the input's times
// its weight's.
// CHECK-LABEL: func.func @conv2d_per_channel
// CHECK: %[[C:.*]] = "ttir.conv2d"({{.*}}) -> tensor<1x2x8x8x!quant.uniform<i32:f32:1, {1.250000e-01,5.000000e-02}>>
// CHECK: "ttir.dequantize"(%[[C]])
func.func @conv2d_per_channel(%arg0: tensor<1x3x8x8xf32>, %arg1: tensor<2x3x3x3xf32>) -> tensor<1x2x8x8xf32> {
  %0 = "ttir.quantize"(%arg0) : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8x!quant.uniform<i8:f32, 0.25>>
  %1 = "ttir.dequantize"(%0) : (tensor<1x3x8x8x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x3x8x8xf32>
  %2 = "ttir.quantize"(%arg1) : (tensor<2x3x3x3xf32>) -> tensor<2x3x3x3x!quant.uniform<i8:f32:0, {0.5, 0.2}>>
  %3 = "ttir.dequantize"(%2) : (tensor<2x3x3x3x!quant.uniform<i8:f32:0, {0.5, 0.2}>>) -> tensor<2x3x3x3xf32>
  %4 = "ttir.conv2d"(%1, %3) <{stride = array<i32: 1, 1>, padding = array<i32: 1, 1, 1, 1>, dilation = array<i32: 1, 1>, groups = 1 : i32, batch_dim = 0 : i64, channel_dim = 1 : i64, height_dim = 2 : i64, width_dim = 3 : i64}> : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x8x8xf32>
  return %4 : tensor<1x2x8x8xf32>
}
