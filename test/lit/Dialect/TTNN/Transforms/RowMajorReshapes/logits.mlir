// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s
// Logits returned as (32, 1, N) and their argmax: the (32, N) product is untilized once and reshaped row-major
// (a view), instead of a (32, 1, N) tiled tensor padded to 32 times the tiles (--ttnn-row-major-reshapes).
// A reshape filling whole tiles stays tiled.

module {
  func.func @main(%x: tensor<32x64xbf16>, %w: tensor<64x256xbf16>, %y: tensor<64x256xbf16>)
      -> (tensor<32x1x256xbf16>, tensor<32x1xi32>, tensor<2x32x256xbf16>) {
    %0 = "ttir.matmul"(%x, %w) : (tensor<32x64xbf16>, tensor<64x256xbf16>) -> tensor<32x256xbf16>
    %1 = "ttir.reshape"(%0) <{shape = [32 : i32, 1 : i32, 256 : i32]}> : (tensor<32x256xbf16>) -> tensor<32x1x256xbf16>
    %2 = "ttir.argmax"(%1) <{dim_arg = [2 : i32], keep_dim = false}> : (tensor<32x1x256xbf16>) -> tensor<32x1xi32>
    %3 = "ttir.reshape"(%y) <{shape = [2 : i32, 32 : i32, 256 : i32]}> : (tensor<64x256xbf16>) -> tensor<2x32x256xbf16>
    return %1, %2, %3 : tensor<32x1x256xbf16>, tensor<32x1xi32>, tensor<2x32x256xbf16>
  }
}

// CHECK-DAG: #[[TILED2:.*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK-DAG: #[[ROWS2:.*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x256xbf16, #dram>, <interleaved>>
// CHECK-DAG: #[[ROWS3:.*]] = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 + d1, d2), <1x1>, memref<32x256xbf16, #dram>, <interleaved>>
// CHECK-DAG: #[[TILED3:.*]] = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 32 + d1, d2), <1x1>, memref<2x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK: func.func @main({{.*}}) -> (tensor<32x1x256xbf16, #[[ROWS3]]>, {{.*}}, tensor<2x32x256xbf16, #[[TILED3]]>)
// CHECK: %[[PRODUCT:.*]] = "ttnn.matmul"
// CHECK: %[[ROWS:.*]] = "ttnn.to_layout"(%[[PRODUCT]]) : (tensor<32x256xbf16, #[[TILED2]]>) -> tensor<32x256xbf16, #[[ROWS2]]>
// CHECK: %[[LOGITS:.*]] = "ttnn.reshape"(%[[ROWS]]) <{shape = [32 : i32, 1 : i32, 256 : i32]}> {{.*}} -> tensor<32x1x256xbf16, #[[ROWS3]]>
// CHECK: "ttnn.argmax"(%[[LOGITS]])
// CHECK: "ttnn.reshape"(%arg2) <{shape = [2 : i32, 32 : i32, 256 : i32]}> {{.*}} -> tensor<2x32x256xbf16, #[[TILED3]]>
// CHECK: return %[[LOGITS]],
