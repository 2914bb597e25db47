// RUN: ttmlir-opt --ttcore-register-device="mock-system-desc-arch=blackhole" --ttir-to-d2m --d2m-grid-selection %s | FileCheck %s --check-prefix=GRID
// RUN: ttmlir-opt --ttcore-register-device="mock-system-desc-arch=blackhole" --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run --arch blackhole %t.ttm | FileCheck %s --check-prefix=RUNS
// Slices and permutes above two dims that keep each matrix's last two dims whole stay at their rank in tiles (no
// dims collapsed), each matrix padded to whole tiles on its own. The op is a view of its input's tiles: its
// remapping the op's logical map on the unit-grid forms, the matrix dims counted in tiles and kept. Grid selection
// puts both tensors on virtual grids of their rank (the largest volume a rectangle of blackhole's 10x13 cores holds,
// dividing each dim): 8x6x2x1 tiles -> 8x6x2x1 on 8x12 cores, 4x4x2x1 -> 4x4x2x1 on 4x8. The host writes row-major
// shards on the input's cores, a program tilizes them, one data-movement kernel per output shard reads its tiles
// from wherever they are, and a program untilizes the result before the host reads it.

// GRID-DAG: #[[IN:layout[0-9]*]] = #ttcore.metal_layout<logical_shape = 8x6x64x32, dim_alignments = 1x1x32x32, collapsed_intervals = dense<> : tensor<0x2xi64>, l1, sharded>
// GRID-DAG: #[[OUT:layout[0-9]*]] = #ttcore.metal_layout<logical_shape = 4x4x64x32, dim_alignments = 1x1x32x32, collapsed_intervals = dense<> : tensor<0x2xi64>, l1, sharded>
// GRID-DAG: #[[SLICE:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (0, 0, 0, 0, d4 + 2, d5 + 1, d6, d7)>
// GRID-DAG: #[[SWAP:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (0, 0, 0, 0, d5, d4, d6, d7)>
// GRID-LABEL: func.func @slice_whole_matrices
// GRID: d2m.empty() {virtualGridForwardMapping = #{{map[0-9]*}}, virtualGridInverseMapping = #{{map[0-9]*}}} : tensor<8x6x2x1x1x1x1x1x!ttcore.tile<32x32, bf16>, #[[IN]]>
// GRID: d2m.view_layout %{{.*}} remapping = #[[SLICE]] : tensor<8x6x2x1x1x1x1x1x!ttcore.tile<32x32, bf16>, #[[IN]]> -> tensor<4x4x2x1x1x1x1x1x!ttcore.tile<32x32, bf16>, #[[OUT]]>
// GRID: d2m.empty() {virtualGridForwardMapping = #{{map[0-9]*}}, virtualGridInverseMapping = #{{map[0-9]*}}} : tensor<4x4x2x1x1x1x1x1x!ttcore.tile<32x32, bf16>, #[[OUT]]>
// GRID: d2m.generic {{{.*}}grid = #ttcore.grid<4x4x2x1, virt_to_physical_map = (d0, d1, d2, d3) -> (0, ((d3 + d2 + d1 * 2 + d0 * 8) floordiv 8) mod 4, (d3 + d2 + d1 * 2 + d0 * 8) mod 8)
// GRID-LABEL: func.func @permute_outer_dims
// GRID: d2m.view_layout %{{.*}} remapping = #[[SWAP]] : tensor<1x18x1x4x1x1x1x1x!ttcore.tile<32x32, f32>, #{{layout[0-9]*}}> -> tensor<18x1x1x4x1x1x1x1x!ttcore.tile<32x32, f32>, #{{layout[0-9]*}}>

// CHECK-LABEL: func.func @slice_whole_matrices
// CHECK: %[[TILES:.*]] = "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64, virtualGridForwardMapping = #{{map[0-9]*}}, virtualGridInverseMapping = #{{map[0-9]*}}}> : () -> memref<8x6x2x1x1x1x1x1x!ttcore.tile<32x32, bf16>, #ttcore.shard<2048x2048x2048x2048, 1>, #l1>
// CHECK: %[[ROWS:.*]] = "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64, virtualGridForwardMapping = #{{map[0-9]*}}, virtualGridInverseMapping = #{{map[0-9]*}}}> : () -> memref<8x6x2x1x1x1x32x32xbf16, #ttcore.shard<2048x2048x64x2, 1>, #l1>
// CHECK: "ttmetal.enqueue_write_buffer"(%arg0, %[[ROWS]])
// CHECK: "ttmetal.enqueue_program"(%[[ROWS]], %[[TILES]], %[[ROWS]], %[[TILES]]) <{{{.*}}#ttmetal.core_range<0x0, 8x12>
// CHECK: %[[OUT:.*]] = "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64, virtualGridForwardMapping = #{{map[0-9]*}}, virtualGridInverseMapping = #{{map[0-9]*}}}> : () -> memref<4x4x2x1x1x1x1x1x!ttcore.tile<32x32, bf16>, #ttcore.shard<2048x2048x2048x2048, 1>, #l1>
// CHECK: "ttmetal.enqueue_program"(%[[TILES]], %[[OUT]], %[[OUT]]) <{cb_ports = array<i64: 0>, kernelConfigs = [#ttmetal.noc_config<@{{datamovement_kernel[0-9]+}}, #ttmetal.core_range<0x0, 4x8>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <buffer_address[0]>]  >, dm_core = 1, noc0>]
// CHECK: %[[BACK:.*]] = "ttmetal.create_buffer"() <{{.*}}> : () -> memref<4x4x2x1x1x1x32x32xbf16, #ttcore.shard<2048x2048x64x2, 1>, #l1>
// CHECK: "ttmetal.enqueue_program"(%[[OUT]], %[[BACK]], %[[OUT]], %[[BACK]])
// CHECK: "ttmetal.enqueue_read_buffer"(%[[BACK]], %{{.*}}) : (memref<4x4x2x1x1x1x32x32xbf16, #ttcore.shard<2048x2048x64x2, 1>, #l1>, memref<4x4x64x32xbf16>)
// RUNS: program 0 ('slice_whole_matrices') loop 0: launch 0: {{[0-9]+}} cycles on 96 core(s); launch 1: {{[0-9]+}} cycles on 32 core(s); launch 2: {{[0-9]+}} cycles on 32 core(s)
func.func @slice_whole_matrices(%arg0: tensor<8x6x64x32xbf16>) -> tensor<4x4x64x32xbf16> {
  %0 = "ttir.slice_static"(%arg0) <{begins = [2 : i32, 1 : i32, 0 : i32, 0 : i32], ends = [6 : i32, 5 : i32, 64 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<8x6x64x32xbf16>) -> tensor<4x4x64x32xbf16>
  return %0 : tensor<4x4x64x32xbf16>
}

// A permute of the outer dims (a dim of 1 moved): each 8-row matrix one tile row at rank, 1x18x1x4 tiles on 72
// cores (8x9) read into the 18x1x1x4 grid of the result.
// CHECK-LABEL: func.func @permute_outer_dims
// CHECK: "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64, virtualGridForwardMapping = #{{map[0-9]*}}, virtualGridInverseMapping = #{{map[0-9]*}}}> : () -> memref<1x18x1x4x1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096x4096x4096, 1>, #l1>
// CHECK: "ttmetal.enqueue_write_buffer"({{.*}}) : (memref<1x18x8x128xf32, {{.*}}>, memref<1x18x1x4x1x1x32x32xf32, #ttcore.shard<4096x4096x128x4, 1>, #l1>)
// CHECK: "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64, virtualGridForwardMapping = #{{map[0-9]*}}, virtualGridInverseMapping = #{{map[0-9]*}}}> : () -> memref<18x1x1x4x1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096x4096x4096, 1>, #l1>
// CHECK: "ttmetal.enqueue_read_buffer"{{.*}} : (memref<18x1x1x4x1x1x32x32xf32, #ttcore.shard<4096x4096x128x4, 1>, #l1>
// RUNS: program 1 ('permute_outer_dims') loop 0: launch 0: {{[0-9]+}} cycles on 72 core(s); launch 1: {{[0-9]+}} cycles on 72 core(s); launch 2: {{[0-9]+}} cycles on 72 core(s)
func.func @permute_outer_dims(%arg0: tensor<1x18x8x128xf32>) -> tensor<18x1x8x128xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0, 2, 3>}> : (tensor<1x18x8x128xf32>) -> tensor<18x1x8x128xf32>
  return %0 : tensor<18x1x8x128xf32>
}
