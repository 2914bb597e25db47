// RUN: ttmlir-opt --ttcore-register-device --ttnn-decomposition %s | FileCheck %s
// Distributed norms over a row split across the two chips of a 1x2 mesh: rms_norm keeps its fused kernel at one
// tile of rows (its weight laid out in rows of one tile), any other shape becomes per-chip statistics, gathered;
// layer_norm always becomes pre/post all-gather.

#dram = #ttnn.buffer_type<dram>
#rows96 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 96 + d1 * 96 + d2, d3), <1x1>, memref<3x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#rows32 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#vec = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>

module {
  // CHECK-LABEL: func.func @rms_rows_of_96
  func.func @rms_rows_of_96(%x: tensor<1x1x96x64xf32, #rows96>, %w: tensor<64xf32, #vec>, %r: tensor<1x1x96x64xf32, #rows96>) -> tensor<1x1x96x64xf32, #rows96> {
    // CHECK: %[[SUM:.*]] = "ttnn.add"(%arg0, %arg2)
    // CHECK: %[[STATS:.*]] = "ttnn.rms_norm_pre_all_gather"(%[[SUM]]) {{.*}} -> tensor<1x1x96x32xf32
    // CHECK: %[[ALL:.*]] = "ttnn.all_gather"(%[[STATS]]) <{all_gather_dim = 3 : si32, cluster_axis = 1 : ui32}> {{.*}} -> tensor<1x1x96x64xf32
    // CHECK: "ttnn.reshape"(%[[ALL]]) {{.*}} -> tensor<1x1x96x2x32xf32
    // CHECK: "ttnn.slice_static"{{.*}} -> tensor<1x1x96x2x1xf32
    // CHECK: %[[MEAN:.*]] = "ttnn.mean"{{.*}}dim_arg = [3 : i32], keep_dim = true{{.*}} -> tensor<1x1x96x1xf32
    // one over the local width: the mean over chips of each chip's sum, over 64 * 2 values in all
    // CHECK: %[[INV:.*]] = "ttnn.full"({{.*}}) <{fill_value = 1.562500e-02 : f32
    // CHECK: %[[MS:.*]] = "ttnn.multiply"(%[[MEAN]], %[[INV]])
    // CHECK: %[[EPS:.*]] = "ttnn.full"({{.*}}) <{fill_value = 9.99999974E-6 : f32
    // CHECK: %[[SHIFTED:.*]] = "ttnn.add"(%[[MS]], %[[EPS]])
    // CHECK: %[[RS:.*]] = "ttnn.rsqrt"(%[[SHIFTED]])
    // CHECK: %[[NORMED:.*]] = "ttnn.multiply"(%[[SUM]], %[[RS]])
    // CHECK: "ttnn.multiply"(%[[NORMED]], %arg1)
    // CHECK-NOT: ttnn.distributed_rms_norm
    %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x2>}> : () -> !ttnn.device
    %0 = "ttnn.distributed_rms_norm"(%x, %w, %r, %d) <{cluster_axis = 1 : ui32, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>}> : (tensor<1x1x96x64xf32, #rows96>, tensor<64xf32, #vec>, tensor<1x1x96x64xf32, #rows96>, !ttnn.device) -> tensor<1x1x96x64xf32, #rows96>
    return %0 : tensor<1x1x96x64xf32, #rows96>
  }

  // CHECK-LABEL: func.func @rms_one_tile_of_rows
  func.func @rms_one_tile_of_rows(%x: tensor<32x64xf32, #rows32>, %w: tensor<64xf32, #vec>) -> tensor<32x64xf32, #rows32> {
    // CHECK: %[[W:.*]] = "ttnn.reshape"(%arg1) <{shape = [2 : i32, 32 : i32]}>
    // CHECK: %[[X:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 1 : i32, 32 : i32, 64 : i32]}>
    // CHECK: %[[N:.*]] = "ttnn.distributed_rms_norm"(%[[X]], %[[W]], %{{.*}}) {{.*}}operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 1>{{.*}} -> tensor<1x1x32x64xf32
    // CHECK: "ttnn.reshape"(%[[N]]) <{shape = [32 : i32, 64 : i32]}>
    %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x2>}> : () -> !ttnn.device
    %0 = "ttnn.distributed_rms_norm"(%x, %w, %d) <{cluster_axis = 1 : ui32, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 1>}> : (tensor<32x64xf32, #rows32>, tensor<64xf32, #vec>, !ttnn.device) -> tensor<32x64xf32, #rows32>
    return %0 : tensor<32x64xf32, #rows32>
  }

  // CHECK-LABEL: func.func @layer_norm
  func.func @layer_norm(%x: tensor<1x1x96x64xf32, #rows96>, %w: tensor<64xf32, #vec>, %b: tensor<64xf32, #vec>) -> tensor<1x1x96x64xf32, #rows96> {
    // CHECK: %[[STATS:.*]] = "ttnn.layer_norm_pre_all_gather"(%arg0) {{.*}} -> tensor<1x1x96x64xf32
    // CHECK: %[[ALL:.*]] = "ttnn.all_gather"(%[[STATS]]) {{.*}} -> tensor<1x1x96x128xf32
    // CHECK: "ttnn.layer_norm_post_all_gather"(%arg0, %[[ALL]], %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1>}>
    %d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x2>}> : () -> !ttnn.device
    %0 = "ttnn.distributed_layer_norm"(%x, %w, %b, %d) <{cluster_axis = 1 : ui32, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}> : (tensor<1x1x96x64xf32, #rows96>, tensor<64xf32, #vec>, tensor<64xf32, #vec>, !ttnn.device) -> tensor<1x1x96x64xf32, #rows96>
    return %0 : tensor<1x1x96x64xf32, #rows96>
  }
}
