// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path% mesh-shape=1,2" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @partition_then_norm
// CHECK: "ttir.mesh_partition"(%arg1) <{cluster_axis = 1 : ui32, dim = 0 : si32}> : (tensor<256xbf16>) -> tensor<128xbf16>
// CHECK: "ttir.distributed_rms_norm"(%arg0, %{{[0-9]+}}) <{cluster_axis = 1 : ui32, epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}>
// TTNN: "ttnn.mesh_partition"
// TTNN-SAME: -> tensor<128xbf16, #ttnn_layout
// TTNN: "ttnn.distributed_rms_norm"
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @partition_then_norm(%arg0: tensor<32x128xbf16>, %arg1: tensor<256xbf16>) -> tensor<32x128xbf16> {
    %0 = "ttir.mesh_partition"(%arg1) <{cluster_axis = 1 : ui32, dim = 0 : si32}> : (tensor<256xbf16>) -> tensor<128xbf16>
    %1 = "ttir.distributed_rms_norm"(%arg0, %0) <{cluster_axis = 1 : ui32, epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<32x128xbf16>, tensor<128xbf16>) -> tensor<32x128xbf16>
    return %1 : tensor<32x128xbf16>
  }
}
