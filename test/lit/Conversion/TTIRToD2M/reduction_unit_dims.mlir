// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// A reduction's dims of size 1 keep their one element: a sum over dims 0 and 2 of a 1x32x64 tensor folds dim 2 only
// (along each row), a max over dims 0 and 1 of 1x40x8 folds dim 1 (down each column).

// CHECK-LABEL: func.func @sum_rows
// CHECK: d2m.generic
// CHECK: d2m.tile_reduce_sum{{.*}}reduce_dim = #d2m<reduce_dim R>
func.func @sum_rows(%a: tensor<1x32x64xf32>) -> tensor<1x32x1xf32> {
  %0 = "ttir.sum"(%a) <{dim_arg = [0 : i32, 2 : i32], keep_dim = true}> : (tensor<1x32x64xf32>) -> tensor<1x32x1xf32>
  return %0 : tensor<1x32x1xf32>
}

// CHECK-LABEL: func.func @max_columns
// CHECK: d2m.generic
// CHECK: d2m.tile_reduce_max{{.*}}reduce_dim = #d2m<reduce_dim C>
func.func @max_columns(%a: tensor<1x40x8xf32>) -> tensor<1x1x8xf32> {
  %0 = "ttir.max"(%a) <{dim_arg = [0 : i32, 1 : i32], keep_dim = true}> : (tensor<1x40x8xf32>) -> tensor<1x1x8xf32>
  return %0 : tensor<1x1x8xf32>
}
