// RUN: ttmlir-opt --ttcore-register-device --ttcore-one-shot-bufferize --split-input-file --verify-diagnostics %s | FileCheck %s
// Tensors become memrefs: a metal layout gives the memory space and the shard (or interleaved) byte strides
// over the shard dims; a plain tensor an identity memref; allocations, copies, casts and calls follow.

#sharded = #ttcore.metal_layout<logical_shape = 64x96, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
#dram = #ttcore.metal_layout<logical_shape = 64x96, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, dram, interleaved>

// CHECK-DAG: #[[L1:.*]] = #ttcore.memory_space<l1>
// CHECK-DAG: #[[DRAM:.*]] = #ttcore.memory_space<dram>
// CHECK: ttcore.global @weights = memref<1x1x2x3x!ttcore.tile<32x32, bf16>, #ttcore.interleaved<6144x2048>, #[[DRAM]]> [0]
ttcore.global @weights = tensor<1x1x2x3x!ttcore.tile<32x32, bf16>, #dram> [0]

// CHECK: func.func @callee(%arg0: memref<2x1x1x3x!ttcore.tile<32x32, bf16>, #ttcore.shard<6144x2048, 1>, #[[L1]]>) -> memref<2x1x1x3x!ttcore.tile<32x32, bf16>, #ttcore.shard<6144x2048, 1>, #[[L1]]>
func.func @callee(%a: tensor<2x1x1x3x!ttcore.tile<32x32, bf16>, #sharded>) -> tensor<2x1x1x3x!ttcore.tile<32x32, bf16>, #sharded> {
  return %a : tensor<2x1x1x3x!ttcore.tile<32x32, bf16>, #sharded>
}

// CHECK: func.func @caller(%arg0: memref<2x1x1x3x!ttcore.tile<32x32, bf16>, #ttcore.shard<6144x2048, 1>, #[[L1]]>, %arg1: memref<4x8xf32>) -> (memref<4x8xf32>, memref<?x8xf32>)
func.func @caller(%a: tensor<2x1x1x3x!ttcore.tile<32x32, bf16>, #sharded>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<?x8xf32>) {
  // CHECK: %{{.*}} = call @callee(%arg0) : (memref<2x1x1x3x!ttcore.tile<32x32, bf16>, #ttcore.shard<6144x2048, 1>, #[[L1]]>) -> memref<2x1x1x3x!ttcore.tile<32x32, bf16>, #ttcore.shard<6144x2048, 1>, #[[L1]]>
  %0 = call @callee(%a) : (tensor<2x1x1x3x!ttcore.tile<32x32, bf16>, #sharded>) -> tensor<2x1x1x3x!ttcore.tile<32x32, bf16>, #sharded>
  // CHECK: %[[W:.*]] = ttcore.get_global @weights : memref<1x1x2x3x!ttcore.tile<32x32, bf16>, #ttcore.interleaved<6144x2048>, #[[DRAM]]>
  %w = ttcore.get_global @weights : tensor<1x1x2x3x!ttcore.tile<32x32, bf16>, #dram>
  // CHECK: %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  // CHECK: linalg.copy ins(%arg1 : memref<4x8xf32>) outs(%[[BUF]] : memref<4x8xf32>)
  %e = tensor.empty() : tensor<4x8xf32>
  %c = linalg.copy ins(%b : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[CAST:.*]] = {{"?}}memref.cast{{"?}}{{.*}}%[[BUF]]{{.*}}memref<4x8xf32>{{.*}}memref<?x8xf32>
  %d = tensor.cast %c : tensor<4x8xf32> to tensor<?x8xf32>
  // CHECK: return %[[BUF]], %[[CAST]] : memref<4x8xf32>, memref<?x8xf32>
  return %c, %d : tensor<4x8xf32>, tensor<?x8xf32>
}

// -----
func.func @unknown(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{failed to bufferize op}}
  %0 = "ttir.abs"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
