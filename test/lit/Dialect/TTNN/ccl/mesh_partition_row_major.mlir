// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="mesh-shape=1,2" --mlir-print-local-scope -o %t.mlir %s
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn --result-file %t.json | FileCheck %s --check-prefix=EXEC

// mesh_partition reads and writes row-major DRAM tensors (tiles would pad the 3-wide trailing dim to 32): its
// tiled input is untilized before it, and the exp reading its result gets it tilized back.
// CHECK-LABEL: func.func @partition
// CHECK: %[[RM:[0-9]+]] = "ttnn.to_layout"(%arg0)
// CHECK-SAME: memref<128x3xbf16, #ttnn.buffer_type<dram>>
// CHECK: %[[PART:[0-9]+]] = "ttnn.mesh_partition"(%[[RM]])
// CHECK-SAME: -> tensor<64x1x1x3xbf16, {{.*}}memref<64x3xbf16, #ttnn.buffer_type<dram>>
// CHECK: %[[TILED:[0-9]+]] = "ttnn.to_layout"(%[[PART]])
// CHECK: "ttnn.exp"(%[[TILED]])
// EXEC: PASS
module {
  func.func @partition(%arg0: tensor<64x2x1x3xbf16>) -> tensor<64x1x1x3xbf16> {
    %0 = "ttir.mesh_partition"(%arg0) <{cluster_axis = 1 : ui32, dim = 1 : si32}> : (tensor<64x2x1x3xbf16>) -> tensor<64x1x1x3xbf16>
    %1 = "ttir.exp"(%0) : (tensor<64x1x1x3xbf16>) -> tensor<64x1x1x3xbf16>
    return %1 : tensor<64x1x1x3xbf16>
  }
}
