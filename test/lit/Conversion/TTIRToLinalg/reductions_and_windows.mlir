// RUN: ttmlir-opt --convert-ttir-to-linalg %s | FileCheck %s
// One tosa.reduce_* per reduced dimension (a reshape drops them without keep_dim); the mean divides by a
// constant count; pools pad with tensor.pad and run linalg's NHWC pooling ops.

func.func @sum_two_dims(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  // CHECK-LABEL: func.func @sum_two_dims
  // CHECK: %[[A:[0-9]+]] = tosa.reduce_sum %arg0 {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  // CHECK: %[[B:[0-9]+]] = tosa.reduce_sum %[[A]] {axis = 2 : i32} : (tensor<1x3x4xf32>) -> tensor<1x3x1xf32>
  // CHECK: tosa.reshape %[[B]], %{{[0-9]+}} : (tensor<1x3x1xf32>, !tosa.shape<1>) -> tensor<3xf32>
  %0 = "ttir.sum"(%x) <{dim_arg = [0 : i32, -1 : i32], keep_dim = false}> : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func @mean(%x: tensor<2x6xf32>) -> tensor<2x1xf32> {
  // CHECK-LABEL: func.func @mean
  // CHECK: %[[S:[0-9]+]] = tosa.reduce_sum %arg0 {axis = 1 : i32}
  // CHECK: %[[N:[0-9]+]] = "tosa.const"() <{values = dense<6.000000e+00> : tensor<2x1xf32>}> : () -> tensor<2x1xf32>
  // CHECK: linalg.div ins(%[[S]], %[[N]] : tensor<2x1xf32>, tensor<2x1xf32>)
  %0 = "ttir.mean"(%x) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<2x6xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

func.func @max_pool(%x: tensor<1x6x6x2xf32>) -> tensor<1x3x3x2xf32> {
  // CHECK-LABEL: func.func @max_pool
  // padding reads as -inf, so it never wins
  // CHECK: %[[LOWEST:.+]] = arith.constant 0xFF800000 : f32
  // CHECK: tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
  // CHECK: linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
  // CHECK-SAME: -> tensor<1x3x3x2xf32>
  %0 = "ttir.max_pool2d"(%x) <{kernel = array<i32: 3, 3>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, padding = array<i32: 1, 1, 1, 1>, ceil_mode = false}> : (tensor<1x6x6x2xf32>) -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}

// The output reads back: `linalg.generic` with two results prints `-> (T1, T2)`.
// RUN: ttmlir-opt --convert-ttir-to-linalg %s | ttmlir-opt | FileCheck %s --check-prefix=READ
func.func @argmax(%x: tensor<4x8xf32>) -> tensor<4xi32> {
  // READ-LABEL: func.func @argmax
  // READ: linalg.generic
  // READ: arith.cmpf ogt
  // READ: } -> (tensor<4xf32>, tensor<4xi32>)
  %0 = "ttir.argmax"(%x) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x8xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
