// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline %s | FileCheck %s
// A weight permuted for a linear layer is regridded onto the matmul's 1x8 grid, where its shards (64x8 bf16 tiles,
// 1 MiB a core) would take more than half of L1: it lives in DRAM. The regridding copy streams it out through CBs
// of 2 pages; the matmul reads it back 8 K tiles a step through double-buffered CBs (A: 1x16, B: 16x8 tiles a
// core) and keeps its partial sums in an f32 L1 tensor of the output's shards, a CB of its own, the compute kernel's
// dst in 32-bit mode.

// CHECK-LABEL: func.func @linear
// CHECK: %[[W:.*]] = "ttmetal.create_buffer"() {{.*}} -> memref<1x1x64x64x!ttcore.tile<32x32, bf16>, #ttcore.interleaved<131072x2048>, #dram>
// CHECK: %[[IN:.*]] = "ttmetal.create_buffer"() {{.*}} -> memref<1x8x1x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<4096x2048, 1>, #l1>
// CHECK: %[[OUT:.*]] = "ttmetal.create_buffer"() {{.*}} -> memref<1x8x1x2x!ttcore.tile<32x32, bf16>, #ttcore.shard<4096x2048, 1>, #l1>
// CHECK: "ttmetal.enqueue_program"(%{{.*}}, %[[W]], %[[IN]], %[[OUT]])
// CHECK: %[[A:.*]] = "ttmetal.create_buffer"() {{.*}} -> memref<1x8x1x16x!ttcore.tile<32x32, bf16>
// CHECK: %[[B:.*]] = "ttmetal.create_buffer"() {{.*}} -> memref<1x8x16x8x!ttcore.tile<32x32, bf16>
// CHECK: %[[P:.*]] = "ttmetal.create_buffer"() {{.*}} -> memref<1x8x1x8x!ttcore.tile<32x32, f32>
// CHECK: "ttmetal.enqueue_program"(%{{.*}}, %[[W]], %[[P]], %{{.*}}, %[[A]], %[[B]], %[[P]], %{{.*}}) <{cb_ports = array<i64: 0, 1, 2, 3>
// CHECK-SAME: #ttmetal.compute_config<@compute_kernel{{[0-9]+}}, {{.*}}, hifi4, true, false, false, [default]>
func.func @linear(%x: tensor<32x2048xbf16>, %w: tensor<2048x2048xbf16>) -> tensor<32x2048xbf16> {
  %0 = "ttir.permute"(%w) <{permutation = array<i64: 1, 0>}> : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
  %1 = "ttir.matmul"(%x, %0) : (tensor<32x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<32x2048xbf16>
  return %1 : tensor<32x2048xbf16>
}
