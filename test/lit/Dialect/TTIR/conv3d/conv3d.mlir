// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC

// A conv3d's 12 input channels are padded to a tile (32); everything it reads becomes bf16; its raw weight is
// prepared on the host into 27 kernel positions x 32 channel rows, then tiled; the (1,1,1,1,O) bias becomes (1, O).
// ROUNDTRIP: "ttir.conv3d"(%arg0, %arg1, %arg2) <{groups = 1 : i32, padding = array<i32: 1, 0, 1>, padding_mode = "replicate", stride = 2 : i32}>
// CHECK-LABEL: func.func @volume
// CHECK: "ttnn.pad"(%arg0) <{padding = array<i32: 0, 0, 0, 0, 0, 0, 0, 0, 0, 20>
// CHECK: "ttnn.reshape"(%arg2) <{shape = [1 : i32, 24 : i32]}>
// CHECK: "ttnn.prepare_conv3d_weights"(%{{[0-9]+}}, %{{[0-9]+}}) <{alignment = 32 : i32, c_in_block = 32 : i32, groups = 1 : i32}>
// CHECK-SAME: -> tensor<864x24xbf16
// CHECK: "ttnn.conv3d"
// CHECK-SAME: conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = 1, h_out_block = 1, c_out_block = 32, c_in_block = 32, compute_with_storage_grid_size = #ttcore.grid<8x8>>
// CHECK-SAME: in_channels = 32 : i32
// CHECK-SAME: padding = array<i32: 1, 0, 1>, padding_mode = "replicate", stride = array<i32: 2, 2, 2>
// CHECK-SAME: -> tensor<1x3x3x4x24xbf16
// EXEC: PASS
module {
  func.func @volume(%x: tensor<1x5x7x8x12xf32>, %w: tensor<24x12x3x3x3xf32>, %b: tensor<1x1x1x1x24xf32>) -> tensor<1x3x3x4x24xf32> {
    %0 = "ttir.conv3d"(%x, %w, %b) <{stride = 2 : i32, padding = array<i32: 1, 0, 1>, groups = 1 : i32, padding_mode = "replicate"}> : (tensor<1x5x7x8x12xf32>, tensor<24x12x3x3x3xf32>, tensor<1x1x1x1x24xf32>) -> tensor<1x3x3x4x24xf32>
    return %0 : tensor<1x3x3x4x24xf32>
  }
}
