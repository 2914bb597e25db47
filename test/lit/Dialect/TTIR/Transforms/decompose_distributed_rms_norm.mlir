// RUN: ttmlir-opt --ttcore-register-device --ttir-decompose-composites %s | FileCheck %s
// A distributed_rms_norm on the chips of a 1x4 mesh: the residual added, each chip's row sums of squares
// all-reduced along the cluster axis, divided by the whole rows' width (4 x 64), then the local part normalized and
// scaled by its weight.

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  // CHECK-LABEL: func.func @norm
  func.func @norm(%x: tensor<32x64xf32>, %w: tensor<64xf32>, %r: tensor<32x64xf32>) -> tensor<32x64xf32> {
    // CHECK: %[[X:.*]] = "ttir.add"(%arg0, %arg2)
    // CHECK: %[[SQ:.*]] = "ttir.multiply"(%[[X]], %[[X]])
    // CHECK: %[[S:.*]] = "ttir.sum"(%[[SQ]]) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<32x64xf32>) -> tensor<32x1xf32>
    // CHECK: %[[T:.*]] = "ttir.all_reduce"(%[[S]]) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<32x1xf32>) -> tensor<32x1xf32>
    // CHECK: "ttir.full"() <{fill_value = 3.906250e-03 : f32, shape = array<i32: 1, 1>}>
    // CHECK: "ttir.multiply"(%[[T]],
    // CHECK: "ttir.full"() <{fill_value = 9.99999974E-6 : f32
    // CHECK: "ttir.rsqrt"
    // CHECK: "ttir.reshape"(%arg1) <{shape = [1 : i32, 64 : i32]}>
    // CHECK-NOT: distributed_rms_norm
    %0 = "ttir.distributed_rms_norm"(%x, %w, %r) <{cluster_axis = 1 : ui32, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<32x64xf32>, tensor<64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
