// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s --check-prefix=LOWERED

// TTNN's prod reduces one dimension (`dim_arg`, si64) or, without it, the whole tensor.
// CHECK-LABEL: func.func @prod
// CHECK: %{{[0-9]+}} = "ttnn.prod"(%arg0) <{dim_arg = 1 : si64, keep_dim = true}> : (tensor<4x32x64xf32>) -> tensor<4x1x64xf32>
module {
  func.func @prod(%arg0: tensor<4x32x64xf32>) -> tensor<4x1x64xf32> {
    %0 = "ttnn.prod"(%arg0) <{dim_arg = 1 : si64, keep_dim = true}> : (tensor<4x32x64xf32>) -> tensor<4x1x64xf32>
    return %0 : tensor<4x1x64xf32>
  }

  // A TTIR prod over several (not all) dimensions reduces them one at a time, the last first; argmax over several
  // runs on them moved last and merged.
  // LOWERED-LABEL: func.func @several_dims
  // LOWERED: "ttnn.prod"({{.*}}) <{dim_arg = 2 : si64, keep_dim = false}>
  // LOWERED: "ttnn.prod"({{.*}}) <{dim_arg = 0 : si64, keep_dim = false}>
  // LOWERED: "ttnn.permute"(%arg0) <{permutation = array<i64: 1, 0, 2>}>
  // LOWERED: "ttnn.reshape"({{.*}}) <{shape = [32 : i32, 256 : i32]}>
  // LOWERED: "ttnn.argmax"({{.*}}) <{dim = 1 : si32, keep_dim = false}>
  func.func @several_dims(%arg0: tensor<4x32x64xf32>) -> (tensor<32xf32>, tensor<32xi32>) {
    %0 = "ttir.prod"(%arg0) <{dim_arg = [0 : i32, 2 : i32], keep_dim = false}> : (tensor<4x32x64xf32>) -> tensor<32xf32>
    %1 = "ttir.argmax"(%arg0) <{dim_arg = [0 : i32, 2 : i32], keep_dim = false}> : (tensor<4x32x64xf32>) -> tensor<32xi32>
    return %0, %1 : tensor<32xf32>, tensor<32xi32>
  }
}
