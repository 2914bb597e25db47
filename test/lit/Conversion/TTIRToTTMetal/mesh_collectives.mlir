// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer %t.mlir -o %t.ttm
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=EXEC
// RUN: ttrt read --section mesh_shape %t.ttm | FileCheck %s --check-prefix=READ
// RUN: ttrt run --mesh-shape 2x4 --program-index 0 %t.ttm | FileCheck %s --check-prefix=BIG
// RUN: not ttrt run --mesh-shape 1x1 %t.ttm 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not ttmlir-opt --ttir-to-ttmetal-pipeline="mesh-shape=1,4" %s 2>&1 | FileCheck %s --check-prefix=MESH
// A tensor-parallel layer on a 1x2 mesh: the weights split over the chips by mesh_shards on the host, each chip's
// matmul a program of its own, its partial sums all-reduced and its activations all-gathered over the fabric by
// host commands, the results joined back on the host. A reduce_scatter and a mesh_partition keep each chip's slice;
// the exchanges named by chip ids (permute, all_to_all, broadcast) and all_reduce_async are host commands too.

// CHECK: meshShape = 1x2, chipIds = [0, 1]
// CHECK-LABEL: func.func @tp_layer
// CHECK-SAME: (%[[X:.*]]: memref<64x128xf32>, %[[W:.*]]: memref<128x128xf32>, %[[V:.*]]: memref<128x64xf32>)
// CHECK: %[[WS:.*]] = "ttmetal.mesh_shard"(%[[W]]) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (memref<128x128xf32>) -> memref<128x64xf32>
// CHECK: %[[VS:.*]] = "ttmetal.mesh_shard"(%[[V]]) {{.*}} : (memref<128x64xf32>) -> memref<64x64xf32>
// CHECK: "ttmetal.enqueue_write_buffer"(%[[WS]]
// CHECK: "ttmetal.enqueue_program"
// CHECK: %[[P:.*]] = memref.alloc() : memref<64x64xf32>
// CHECK: "ttmetal.enqueue_read_buffer"({{.*}}, %[[P]])
// CHECK: %[[SUM:.*]] = "ttmetal.all_reduce"(%[[P]]) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (memref<64x64xf32>) -> memref<64x64xf32>
// CHECK: "ttmetal.all_gather"({{.*}}) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (memref<64x64xf32>) -> memref<64x128xf32>
// CHECK: "ttmetal.reduce_scatter"({{.*}}) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<max>, scatter_dim = 0 : si32}> : (memref<64x64xf32>) -> memref<32x64xf32>
// CHECK: "ttmetal.mesh_partition"({{.*}}) <{cluster_axis = 1 : ui32, dim = 1 : si32}> : (memref<64x128xf32>) -> memref<64x64xf32>
// CHECK: "ttmetal.mesh_shard"(%[[SUM]]) {{.*}}shard_to_full{{.*}}replicate{{.*}} : (memref<64x64xf32>) -> memref<64x64xf32>
// EXEC: .ttm program 0 ('tp_layer') loop 0: launch 0: {{[0-9,]+}} cycles{{.*}}; all_reduce 0: {{[0-9,]+}} ns on the fabric; all_gather 1: {{[0-9,]+}} ns on the fabric; reduce_scatter 2: {{[0-9,]+}} ns on the fabric; mesh_partition 3: 0 ns on the fabric

// MESH: error: Error determining mesh shape
// BIG: program 0 ('tp_layer') loop 0: launch 0:
// SMALL: system desc mismatch: program 0 ('tp_layer') needs a 1x2 mesh, the system is 1x1
// READ: "program": "tp_layer",
// READ-NEXT: "mesh_shape": [1, 2]

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @tp_layer(%x: tensor<64x128xf32>, %w: tensor<128x128xf32>, %v: tensor<128x64xf32>) -> (tensor<64x64xf32>, tensor<64x128xf32>, tensor<64x64xf32>, tensor<64x128xf32>) {
    %ws = "ttir.mesh_shard"(%w) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<128x128xf32>) -> tensor<128x64xf32>
    %vs = "ttir.mesh_shard"(%v) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<128x64xf32>) -> tensor<64x64xf32>
    %h = "ttir.matmul"(%x, %ws) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %p = "ttir.matmul"(%h, %vs) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %sum = "ttir.all_reduce"(%p) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %g = "ttir.all_gather"(%h) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<64x64xf32>) -> tensor<64x128xf32>
    %rs = "ttir.reduce_scatter"(%h) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<max>, scatter_dim = 0 : si32}> : (tensor<64x64xf32>) -> tensor<32x64xf32>
    %mp = "ttir.mesh_partition"(%g) <{cluster_axis = 1 : ui32, dim = 1 : si32}> : (tensor<64x128xf32>) -> tensor<64x64xf32>
    %out = "ttir.mesh_shard"(%sum) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %gout = "ttir.mesh_shard"(%g) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %rsout = "ttir.mesh_shard"(%rs) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xf32>) -> tensor<64x64xf32>
    %mpout = "ttir.mesh_shard"(%mp) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x64xf32>) -> tensor<64x128xf32>
    return %out, %gout, %rsout, %mpout : tensor<64x64xf32>, tensor<64x128xf32>, tensor<64x64xf32>, tensor<64x128xf32>
  }

  // CHECK-LABEL: func.func @swap
  // CHECK: "ttmetal.collective_permute"(%arg0) <{source_target_pairs = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2x{{s?i[0-9]+}}>}> : (memref<32x32xf32>) -> memref<32x32xf32>
  // CHECK: "ttmetal.all_to_all"(%arg0) <{concat_dim = 1 : si32, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2x{{s?i[0-9]+}}>, split_count = 2 : si32, split_dim = 0 : si32}> : (memref<32x32xf32>) -> memref<16x64xf32>
  // CHECK: "ttmetal.collective_broadcast"(%arg0) <{replica_groups = dense<{{\[\[}}1, 0]]> : tensor<1x2x{{s?i[0-9]+}}>}>
  // CHECK: "ttmetal.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}>
  // EXEC: .ttm program 1 ('swap') loop 0: collective_permute 0: {{[0-9,]+}} ns on the fabric; all_to_all 1: {{[0-9,]+}} ns on the fabric; collective_broadcast 2: {{[0-9,]+}} ns on the fabric; all_reduce 3
  func.func @swap(%a: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<16x64xf32>, tensor<32x32xf32>, tensor<32x32xf32>) {
    %0 = "ttir.collective_permute"(%a) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %1 = "ttir.all_to_all"(%a) <{split_dim = 0 : si32, concat_dim = 1 : si32, split_count = 2 : si32, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<32x32xf32>) -> tensor<16x64xf32>
    %2 = "ttir.collective_broadcast"(%a) <{replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %3 = "ttir.all_reduce_async"(%a) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0, %1, %2, %3 : tensor<32x32xf32>, tensor<16x64xf32>, tensor<32x32xf32>, tensor<32x32xf32>
  }
}
