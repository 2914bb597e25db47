// RUN: ttmlir-opt --ttir-to-ttir-decomposition %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC

// A (N, C, S) training batch norm runs on an (N, C, S, 1) view with (1, C, 1, 1) statistics; the batch statistics
// come back (1, C, 1, 1) and are reshaped to the (C) of the running ones.
// CHECK-LABEL: func.func @batch_norm_training_3d
// CHECK: "ttir.reshape"(%arg0) <{shape = [4 : i32, 6 : i32, 10 : i32, 1 : i32]}>
// CHECK-COUNT-4: "ttir.reshape"(%arg{{[1-4]}}) <{shape = [1 : i32, 6 : i32, 1 : i32, 1 : i32]}>
// CHECK: "ttir.batch_norm_training"{{.*}} -> (tensor<4x6x10x1xf32>, tensor<1x6x1x1xf32>, tensor<1x6x1x1xf32>)
// CHECK: "ttir.reshape"({{.*}}) <{shape = [4 : i32, 6 : i32, 10 : i32]}>
// CHECK-COUNT-2: "ttir.reshape"({{.*}}) <{shape = [6 : i32]}>
// EXEC: PASS
func.func @batch_norm_training_3d(%arg0: tensor<4x6x10xf32>, %arg1: tensor<6xf32>, %arg2: tensor<6xf32>, %arg3: tensor<6xf32>, %arg4: tensor<6xf32>) -> (tensor<4x6x10xf32>, tensor<6xf32>, tensor<6xf32>) {
  %0, %1, %2 = "ttir.batch_norm_training"(%arg0, %arg1, %arg2, %arg3, %arg4) <{dimension = 1 : i32, epsilon = 1.0e-05 : f32, momentum = 1.0e-01 : f32}> : (tensor<4x6x10xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<4x6x10xf32>, tensor<6xf32>, tensor<6xf32>)
  return %0, %1, %2 : tensor<4x6x10xf32>, tensor<6xf32>, tensor<6xf32>
}
