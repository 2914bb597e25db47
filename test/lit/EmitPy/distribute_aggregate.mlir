// RUN: ttmlir-opt --ttir-to-emitpy-pipeline="mesh-shape=1,2" -o %t.mlir %s
// RUN: ttmlir-translate --mlir-to-python -o %t.py %t.mlir
// RUN: FileCheck %s --input-file=%t.py
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="mesh-shape=1,2" %s | ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn
// RUN: ttrt emitpy %t.py --flatbuffer %t.ttnn --result-file %t.json
// RUN: FileCheck %s --check-prefix=RESULT --input-file=%t.json

// A tensor split by columns over the two chips and gathered back: the generated Python spreads and gathers it
// with ttnn's mesh mapper and composer configs, and agrees with the flatbuffer run.
// CHECK: ttnn.distribute_tensor({{.*}}mapper_config=ttnn.MeshMapperConfig([ttnn.PlacementReplicate(), ttnn.PlacementShard(1)], ttnn.MeshShape([1, 2]))
// CHECK: ttnn.aggregate_tensor({{.*}}composer_config=ttnn.MeshComposerConfig([0, 1], ttnn.MeshShape([1, 2])))
// RESULT: "result": "pass"
module {
  func.func @split_exp_join(%arg0: tensor<32x128xf32>) -> tensor<32x128xf32> {
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x128xf32>) -> tensor<32x64xf32>
    %1 = "ttir.exp"(%0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xf32>) -> tensor<32x128xf32>
    return %2 : tensor<32x128xf32>
  }
}
