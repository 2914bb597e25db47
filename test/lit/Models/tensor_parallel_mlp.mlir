// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="mesh-shape=1,2" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run --check-memory-leak --result-file %t.json --artifact-dir %t.artifacts %t.ttnn | FileCheck %s --check-prefix=EXEC
// RUN: ttrt perf --artifact-dir %t.perf %t.ttnn
// RUN: FileCheck %s --check-prefix=PERF --input-file=%t.perf/tensor_parallel_mlp.mlir.tmp.ttnn/perf/ops_perf_results.csv

// A Megatron-style MLP on the two chips of an n300: the first weight is split by columns, the second by
// rows, and one all_reduce sums the partial products.
// CHECK: ttcore.device @default_device = {{.*}}meshShape = 1x2
// CHECK: "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x2>}>
// Splitting a tensor over the mesh happens on the host: the weights go in straight from the arguments.
// CHECK: "ttnn.distribute_tensor"(%arg1,
// CHECK-SAME: placements = [<replicate, -1 : i32>, <shard, 1 : i32>], mesh_shape_override = [1 : ui32, 2 : ui32]
// CHECK-SAME: -> tensor<64x128xf32
// CHECK: "ttnn.distribute_tensor"(%arg2,
// CHECK-SAME: -> tensor<128x64xf32
// CHECK: "ttnn.matmul"
// CHECK-SAME: activation = "gelu"
// CHECK: "ttnn.matmul"
// CHECK: "ttnn.all_reduce"
// CHECK-SAME: cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>
// CHECK: "ttnn.from_device"
// The replicated result is read back from the first chip.
// CHECK: "ttnn.aggregate_tensor"
// CHECK-SAME: composer_config = #ttnn.mesh_composer_config<dims = [0 : i32], mesh_shape_override = [1 : ui32]>
// CHECK: return
// EXEC: PASS
// Each chip reports its own row for every device op.
// PERF: ttnn.all_reduce,tt_dnn_device,{{[0-9]+}},0,
// PERF-NEXT: ttnn.all_reduce,tt_dnn_device,{{[0-9]+}},1,
module {
  func.func @tp_mlp(%x: tensor<32x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.mesh_shard"(%w1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x256xf32>) -> tensor<64x128xf32>
    %1 = "ttir.mesh_shard"(%w2) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<256x64xf32>) -> tensor<128x64xf32>
    %2 = "ttir.matmul"(%x, %0) : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
    %3 = "ttir.gelu"(%2) : (tensor<32x128xf32>) -> tensor<32x128xf32>
    %4 = "ttir.matmul"(%3, %1) : (tensor<32x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
    %5 = "ttir.all_reduce"(%4) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %6 = "ttir.mesh_shard"(%5) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %6 : tensor<32x64xf32>
  }
}
