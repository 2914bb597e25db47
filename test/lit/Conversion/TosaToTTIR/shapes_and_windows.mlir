// RUN: ttmlir-opt --convert-tosa-to-ttir %s | FileCheck %s
// Shapes TOSA passes as !tosa.shape operands become TTIR attributes; TOSA's pads [top, bottom, left, right]
// become TTIR's [top, left, bottom, right]; reductions keep the reduced dimension.

func.func @shapes(%x: tensor<2x3x4xf32>) -> tensor<8x3x2xf32> {
  // CHECK-LABEL: func.func @shapes
  // CHECK: "ttir.permute"(%arg0) <{permutation = array<i64: 2, 1, 0>}> : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %0 = tosa.transpose %x {perms = array<i32: 2, 1, 0>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %m = tosa.const_shape {values = dense<[2, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  // CHECK: "ttir.constant"() <{value = dense<[2, 1, 1]> : tensor<3xi64>}>
  // CHECK: "ttir.repeat"(%{{[0-9]+}}) <{repeat_dimensions = array<i64: 2, 1, 1>}> : (tensor<4x3x2xf32>) -> tensor<8x3x2xf32>
  %1 = tosa.tile %0, %m : (tensor<4x3x2xf32>, !tosa.shape<3>) -> tensor<8x3x2xf32>
  return %1 : tensor<8x3x2xf32>
}

func.func @reduce_and_concat(%x: tensor<2x3xf32>, %y: tensor<2x5xf32>) -> tensor<2x1xf32> {
  // CHECK-LABEL: func.func @reduce_and_concat
  // CHECK: "ttir.concat"(%arg0, %arg1) <{dim = 1 : si32}> : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %0 = tosa.concat %x, %y {axis = 1 : i32} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  // CHECK: "ttir.prod"(%{{[0-9]+}}) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %1 = tosa.reduce_product %0 {axis = 1 : i32} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  return %1 : tensor<2x1xf32>
}

func.func @pools(%x: tensor<1x9x10x4xf32>) -> tensor<1x5x5x4xf32> {
  // CHECK-LABEL: func.func @pools
  // CHECK: "ttir.max_pool2d"(%arg0) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = array<i32: 3, 2>, padding = array<i32: 1, 0, 1, 0>, stride = array<i32: 2, 2>}>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 3, 2>, pad = array<i64: 1, 1, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x9x10x4xf32>) -> tensor<1x5x5x4xf32>
  return %0 : tensor<1x5x5x4xf32>
}
