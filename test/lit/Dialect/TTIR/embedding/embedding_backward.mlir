// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s

// ttir.embedding_backward lowers to tt-metal's embedding_bw: 10 indices padded to a tile (32) with
// zeros, as (1, 1, 1, 32) u32; the gradient padded alike and laid out (1, 1, 32, C); the (1, 1, V, C)
// result reshaped to the weight's shape.
func.func @backward(%arg0: tensor<10xi32>, %arg1: tensor<64x96xbf16>, %arg2: tensor<10x96xbf16>) -> tensor<64x96xbf16> {
  // CHECK-LABEL: func.func @backward
  // CHECK: "ttnn.pad"
  // CHECK-SAME: -> tensor<1x32xsi32
  // CHECK: "ttnn.pad"
  // CHECK-SAME: -> tensor<32x96xbf16
  // CHECK: "ttnn.embedding_bw"
  // CHECK-SAME: (tensor<1x1x1x32xui32, {{.*}}>, tensor<64x96xbf16, {{.*}}>, tensor<1x1x32x96xbf16, {{.*}}>) -> tensor<1x1x64x96xbf16
  // CHECK: "ttnn.reshape"
  // CHECK-SAME: <{shape = [64 : i32, 96 : i32]}>
  %0 = "ttir.embedding_backward"(%arg0, %arg1, %arg2) : (tensor<10xi32>, tensor<64x96xbf16>, tensor<10x96xbf16>) -> tensor<64x96xbf16>
  return %0 : tensor<64x96xbf16>
}
