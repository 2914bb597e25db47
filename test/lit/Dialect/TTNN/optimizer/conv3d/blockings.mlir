// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1" %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-conv3d-config=tuned=w_out_block#2:weights_dtype#bf16" %s | FileCheck %s --check-prefix=OVER
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s --check-prefix=LEVEL0
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-conv3d-config=plain=c_in_block#96" %s 2>&1 | FileCheck %s --check-prefix=DIVIDE
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-conv3d-config=plain=core_grid#2" %s 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-conv3d-config=nothing=c_in_block#32" %s 2>&1 | FileCheck %s --check-prefix=NAME

// A shape tt-metal has tuned (128 -> 128 channels, 3x3x3 kernel) takes its
// blocking from the optimizer; another keeps the conversion's; an override sets single fields on top.
// CHECK-LABEL: func.func @tuned
// CHECK: "ttnn.conv3d"{{.*}}conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = 8, h_out_block = 8, c_out_block = 32, c_in_block = 128, compute_with_storage_grid_size = #ttcore.grid<8x8>>
// CHECK-LABEL: func.func @plain
// CHECK: "ttnn.conv3d"{{.*}}conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = 1, h_out_block = 1, c_out_block = 32, c_in_block = 32,
// OVER-LABEL: func.func @tuned
// OVER: conv3d_config = #ttnn.conv3d_config<weights_dtype = bf16, t_out_block = 1, w_out_block = 2, h_out_block = 8, c_out_block = 32, c_in_block = 128,
// LEVEL0-LABEL: func.func @tuned
// LEVEL0: conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = 1, h_out_block = 1, c_out_block = 32, c_in_block = 32,
// DIVIDE: error: conv3d_config c_in_block = 96 must divide the 64 input channels
// FIELD: error: invalid override-conv3d-config parameter 'core_grid#2' for 'plain' (expected <field>#<value>, a field of #ttnn.conv3d_config)
// NAME: error: override-conv3d-config names no conv3d: 'nothing'
module {
  func.func @tuned(%x: tensor<1x6x10x10x128xbf16>, %w: tensor<128x128x3x3x3xbf16>) -> tensor<1x4x8x8x128xbf16> {
    %0 = "ttir.conv3d"(%x, %w) <{stride = array<i32: 1, 1, 1>, padding = array<i32: 0, 0, 0>, groups = 1 : i32, padding_mode = "zeros"}> : (tensor<1x6x10x10x128xbf16>, tensor<128x128x3x3x3xbf16>) -> tensor<1x4x8x8x128xbf16> loc("tuned")
    return %0 : tensor<1x4x8x8x128xbf16>
  }
  func.func @plain(%x: tensor<1x6x10x10x64xbf16>, %w: tensor<32x64x3x3x3xbf16>) -> tensor<1x4x8x8x32xbf16> {
    %0 = "ttir.conv3d"(%x, %w) <{stride = array<i32: 1, 1, 1>, padding = array<i32: 0, 0, 0>, groups = 1 : i32, padding_mode = "zeros"}> : (tensor<1x6x10x10x64xbf16>, tensor<32x64x3x3x3xbf16>) -> tensor<1x4x8x8x32xbf16> loc("plain")
    return %0 : tensor<1x4x8x8x32xbf16>
  }
}
