// RUN: ttmlir-opt --ttcore-register-device="mock-system-desc-arch=blackhole" --ttir-to-d2m --d2m-grid-selection %s | FileCheck %s --check-prefix=GRID
// RUN: ttmlir-opt --ttcore-register-device="mock-system-desc-arch=blackhole" --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run --arch blackhole %t.ttm | FileCheck %s --check-prefix=RUNS
// A slice above two dims cutting tiles (its last dim from 2, its rows from 16 and every second matrix of dim 0)
// stays at its rank in row-major elements, each dim padded only as a matrix's last two are (the last dim 4 -> 32).
// Grid selection puts each tensor on the virtual grid of the largest volume a rectangle of blackhole's 10x13 cores
// holds, dividing its dims (the last two in whole tiles): 6x64x2x1 -> 3x16x2x1 (96 shards of 2x4x32x32 elements),
// 3x32x1x1 -> 3x32x1x1, both laid row by row onto 8x12 cores. The host writes the input's shards and reads the
// result's as they are (no tilize), and one data-movement kernel per output shard reads its rows.

// GRID-DAG: #ttcore.metal_layout<logical_shape = 6x64x64x4, dim_alignments = 1x1x32x32, collapsed_intervals = dense<> : tensor<0x2xi64>, l1, sharded>
// GRID-DAG: #ttcore.metal_layout<logical_shape = 3x32x32x2, dim_alignments = 1x1x32x32, collapsed_intervals = dense<> : tensor<0x2xi64>, l1, sharded>
// GRID-LABEL: func.func @slice_rows
// GRID: %[[IN:.*]] = d2m.empty() {virtualGridForwardMapping = #{{map[0-9]*}}, virtualGridInverseMapping = #{{map[0-9]*}}} : tensor<3x16x2x1x2x4x32x32xf32, #{{layout[0-9]*}}>
// GRID: d2m.view_layout %{{.*}} remapping = #{{map[0-9]*}} : tensor<3x16x2x1x2x4x32x32xf32, #{{layout[0-9]*}}> -> tensor<3x32x1x1x1x1x32x32xf32, #{{layout[0-9]*}}>
// GRID: d2m.empty() {virtualGridForwardMapping = #{{map[0-9]*}}, virtualGridInverseMapping = #{{map[0-9]*}}} : tensor<3x32x1x1x1x1x32x32xf32, #{{layout[0-9]*}}>
// GRID: d2m.generic {{{.*}}grid = #ttcore.grid<3x32x1x1, virt_to_physical_map = (d0, d1, d2, d3) -> (0, ((d3 + d2 + d1 + d0 * 32) floordiv 12) mod 8, (d3 + d2 + d1 + d0 * 32) mod 12)

// CHECK-DAG: #[[FWD:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (((d3 + d2 + d1 * 2 + d0 * 32) floordiv 12) mod 8, (d3 + d2 + d1 * 2 + d0 * 32) mod 12, d4, d5, d6, d7)>
// CHECK-DAG: #[[INV:map[0-9]*]] = affine_map<(d0, d1) -> (0, ((d1 + d0 * 12) floordiv 32) mod 3, ((d1 + d0 * 12) floordiv 2) mod 16, (d1 + d0 * 12) mod 2, 0)>
// CHECK-LABEL: func.func @slice_rows
// CHECK: %[[A:.*]] = "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64, virtualGridForwardMapping = #[[FWD]], virtualGridInverseMapping = #[[INV]]}> : () -> memref<3x16x2x1x2x4x32x32xf32, #ttcore.shard<16384x4096x128x4, 1>, #l1>
// CHECK: %[[STAGED:.*]] = memref.alloc() : memref<6x64x64x4xf32, #ttcore.host_layout<logical_shape = 6x64x64x4, host_strides = 131072x2048x32x1, host_volume = 786432>>
// CHECK: "ttmetal.enqueue_write_buffer"(%[[STAGED]], %[[A]])
// CHECK: %[[B:.*]] = "ttmetal.create_buffer"() <{{.*}}> : () -> memref<3x32x1x1x1x1x32x32xf32, #ttcore.shard<4096x4096x128x4, 1>, #l1>
// CHECK: "ttmetal.enqueue_program"(%[[A]], %[[B]], %[[B]]) <{cb_ports = array<i64: 0>, kernelConfigs = [#ttmetal.noc_config<@datamovement_kernel0, #ttmetal.core_range<0x0, 8x12>, #ttmetal.kernel_args<common_rt_args = [<cb_port[0]>, <buffer_address[0]>]  >, dm_core = 1, noc0>]
// CHECK-NOT: "ttmetal.enqueue_program"
// CHECK: "ttmetal.enqueue_read_buffer"(%[[B]], %{{.*}}) : (memref<3x32x1x1x1x1x32x32xf32, #ttcore.shard<4096x4096x128x4, 1>, #l1>, memref<3x32x32x2xf32
// RUNS: launch 0: {{[0-9]+}} cycles on 96 core(s)
func.func @slice_rows(%arg0: tensor<6x64x64x4xf32>) -> tensor<3x32x32x2xf32> {
  %0 = "ttir.slice_static"(%arg0) <{begins = [1 : i32, 15 : i32, 16 : i32, 2 : i32], ends = [6 : i32, 47 : i32, 48 : i32, 4 : i32], step = [2 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<6x64x64x4xf32>) -> tensor<3x32x32x2xf32>
  return %0 : tensor<3x32x32x2xf32>
}

// Between tiled programs the row-major tensors are moved on the device: the producer's tiles untilized into the
// slice's row-major input, the slice's result tilized into the consumer's tiles, each by a data-movement kernel
// on the destination's cores; the host writes the input and reads the result alone.
// CHECK-LABEL: func.func @between_tiled
// CHECK: "ttmetal.enqueue_write_buffer"
// CHECK-NOT: "ttmetal.enqueue_write_buffer"
// CHECK-NOT: "ttmetal.enqueue_read_buffer"
// CHECK-COUNT-5: "ttmetal.enqueue_program"
// CHECK-NOT: "ttmetal.enqueue_write_buffer"
// CHECK: "ttmetal.enqueue_read_buffer"
// CHECK-NOT: "ttmetal.enqueue_program"
// CHECK: return
// RUNS: program 1 ('between_tiled') loop 0: launch 0: {{[0-9]+}} cycles
func.func @between_tiled(%arg0: tensor<2x4x64x96xf32>) -> tensor<2x3x55x81xf32> {
  %0 = "ttir.abs"(%arg0) : (tensor<2x4x64x96xf32>) -> tensor<2x4x64x96xf32>
  %1 = "ttir.slice_static"(%0) <{begins = [0 : i32, 1 : i32, 5 : i32, 9 : i32], ends = [2 : i32, 4 : i32, 60 : i32, 90 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<2x4x64x96xf32>) -> tensor<2x3x55x81xf32>
  %2 = "ttir.neg"(%1) : (tensor<2x3x55x81xf32>) -> tensor<2x3x55x81xf32>
  return %2 : tensor<2x3x55x81xf32>
}
