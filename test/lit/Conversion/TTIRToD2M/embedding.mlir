// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --convert-d2m-to-ttkernel %s | FileCheck %s --check-prefix=KERNEL
// An embedding is a generic of one data-movement thread over its indices (ui32 as 32-bit tiles), its table (moved to
// DRAM) and its output (on the grid of its tiles: 2 matrices of 3 rows, each padded to a tile row), whose region is
// a d2m.embedding; its kernel reads the indices' tile, loads each index from it and reads the table row's two face
// rows (16 bf16 elements, 32 bytes) into the output tile.

// CHECK-DAG: #[[INDICES:.*]] = #ttcore.metal_layout<logical_shape = 2x3, {{.*}}l1, sharded>
// CHECK-DAG: #[[TABLE:.*]] = #ttcore.metal_layout<logical_shape = 16x8, {{.*}}dram, interleaved>
// CHECK-DAG: #[[OUTPUT:.*]] = #ttcore.metal_layout<logical_shape = 2x3x8, {{.*}}l1, sharded>
// CHECK-LABEL: func.func @lookup
// CHECK: %[[I:.*]] = d2m.to_layout %arg0, %{{.*}} : tensor<2x3xui32> into tensor<1x1x1x1x!ttcore.tile<32x32, si32>, #[[INDICES]]>
// CHECK: %[[W:.*]] = d2m.to_layout %arg1, %{{.*}} : tensor<16x8xbf16> into tensor<1x1x1x1x!ttcore.tile<32x32, bf16>, #[[TABLE]]>
// CHECK: %[[O:.*]] = d2m.empty() : tensor<2x1x1x1x!ttcore.tile<32x32, bf16>, #[[OUTPUT]]>
// CHECK: d2m.generic {block_factors = [], grid = #ttcore.grid<2x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement>]}
// CHECK: %[[E:.*]] = d2m.embedding %[[I]], %[[W]], %[[O]]<6, 8> {indicesShape = array<i64: 2, 3>}
// CHECK-NEXT: d2m.yield %[[E]]

// The indices are written row-major and tilized on the device first (kernels 0 and 1: one data-movement kernel,
// no CB of that program moving data over the NoC).
// KERNEL: threads = [#d2m.thread<datamovement, @datamovement_kernel2, dm_core = 1>]
// KERNEL: func.func private @datamovement_kernel2()
// KERNEL: ttkernel.noc_async_read core[{{.*}}], {{.*}}, {{.*}}, %c4096_i32
// KERNEL: ttkernel.noc_async_read_barrier
// KERNEL: scf.if
// KERNEL: ttkernel.load_from_l1({{.*}}) : (!ttkernel.l1_addr_ptr, i32) -> i32
// KERNEL: ttkernel.noc_async_read bank[{{.*}}], {{.*}}, {{.*}}, %c32_i32
// KERNEL: ttkernel.noc_async_read bank[{{.*}}], {{.*}}, {{.*}}, %c32_i32
// KERNEL: ttkernel.cb_push_back
func.func @lookup(%indices: tensor<2x3xui32>, %weight: tensor<16x8xbf16>) -> tensor<2x3x8xbf16> {
  %0 = "ttir.embedding"(%indices, %weight) : (tensor<2x3xui32>, tensor<16x8xbf16>) -> tensor<2x3x8xbf16>
  return %0 : tensor<2x3x8xbf16>
}

// A ui32 tensor reaches the device through data movement and 32-bit integer typecasts (bit copies).
// CHECK-LABEL: func.func @indices_cast
// CHECK: d2m.generic
// CHECK: d2m.tile_typecast
// CHECK: d2m.embedding
func.func @indices_cast(%ids: tensor<64xsi32>, %weight: tensor<40x32xf32>) -> tensor<64x32xf32> {
  %0 = "ttir.typecast"(%ids) : (tensor<64xsi32>) -> tensor<64xui32>
  %1 = "ttir.embedding"(%0, %weight) : (tensor<64xui32>, tensor<40x32xf32>) -> tensor<64x32xf32>
  return %1 : tensor<64x32xf32>
}

// A gather of whole rows of a matrix by one-element index vectors is the same lookup (its indices a column).
// CHECK-LABEL: func.func @gather_rows
// CHECK: d2m.embedding {{.*}}<40, 3> {indicesShape = array<i64: 40>}
func.func @gather_rows(%t: tensor<169x3xbf16>, %i: tensor<40x1xsi32>) -> tensor<40x3xbf16> {
  %0 = "ttir.gather"(%t, %i) <{collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : si64, indices_are_sorted = false, offset_dims = array<i64: 1>, operand_batching_dims = array<i64>, slice_sizes = array<i64: 1, 3>, start_index_map = array<i64: 0>, start_indices_batching_dims = array<i64>}> : (tensor<169x3xbf16>, tensor<40x1xsi32>) -> tensor<40x3xbf16>
  return %0 : tensor<40x3xbf16>
}
