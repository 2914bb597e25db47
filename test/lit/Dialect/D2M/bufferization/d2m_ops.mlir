// RUN: ttmlir-opt --split-input-file --ttir-bufferization-pipeline %s | FileCheck %s
// RUN: ttmlir-opt --split-input-file --ttcore-one-shot-bufferize %s | FileCheck %s
// D2M ops on device tensors bufferize: a d2m.empty is a memref.alloc in ttcore's layout, a view a #ttcore.view
// memref of its input's buffer, to_layout and a generic write their outputs in place (no results), and in the
// generic's region the loads, stores, local copies and yields follow (a core's local blocks in its L1); a function
// returns the buffers it returns.

#sharded = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, -1]]> : tensor<1x2xi64>, l1, sharded>
#dram = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, -1]]> : tensor<1x2xi64>, dram, interleaved>
#id = affine_map<(d0, d1) -> (d0, d1)>
#swap = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
!dev = tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #sharded>
!blk = tensor<1x1x!ttcore.tile<32x32, f32>>

// CHECK-LABEL: func.func @copy_through_view
// CHECK-SAME: -> memref<2x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
// CHECK: %[[IN:.*]] = memref.alloc() : memref<2x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
// CHECK: %[[DRAM:.*]] = memref.alloc() : memref<1x1x2x2x!ttcore.tile<32x32, f32>, #ttcore.interleaved<8192x4096>, #dram>
// CHECK: d2m.to_layout %[[IN]], %[[DRAM]] : memref<2x2x1x1x{{.*}}> into memref<1x1x2x2x{{.*}}>{{$}}
// CHECK: %[[OUT:.*]] = memref.alloc()
// CHECK: %[[VIEW:.*]] = d2m.view_layout %[[IN]] remapping = #{{.*}} : memref<{{.*}}, #ttcore.shard<4096x4096, 1>, #l1> -> memref<2x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.view<4>, #l1>
// CHECK: d2m.generic
// CHECK-NEXT: ins(%[[VIEW]] : memref<2x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.view<4>, #l1>)
// CHECK-NEXT: outs(%[[OUT]] : memref<2x2x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>)
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x1x!ttcore.tile<32x32, f32>, #l1>
// CHECK-NEXT: d2m.remote_load %[[A]] %[[VIEW]][%{{.*}}, %{{.*}}] : memref<1x1x!ttcore.tile<32x32, f32>, #l1>, memref<{{.*}}#ttcore.view<4>, #l1>{{$}}
// CHECK: %[[B:.*]] = memref.alloc()
// CHECK-NEXT: d2m.local_copy %[[A]], %[[B]] indexing_maps = [#{{.*}}, #{{.*}}] : memref<1x1x!ttcore.tile<32x32, f32>, #l1>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>{{$}}
// CHECK-NEXT: d2m.remote_store %[[OUT]][%{{.*}}, %{{.*}}] %[[B]] : memref<{{.*}}>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>{{$}}
// CHECK-NOT: d2m.yield
// CHECK: return %[[OUT]]
func.func @copy_through_view() -> !dev {
  %in = d2m.empty() : !dev
  %d = d2m.empty() : tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #dram>
  %moved = d2m.to_layout %in, %d : !dev into tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #dram> -> tensor<1x1x2x2x!ttcore.tile<32x32, f32>, #dram>
  %out = d2m.empty() : !dev
  %view = d2m.view_layout %in remapping = #swap : !dev -> !dev
  %r = d2m.generic {block_factors = [1, 1], grid = #ttcore.grid<2x2>, indexing_maps = [#id, #id], iterator_types = [#ttcore.iterator_type<parallel>, #ttcore.iterator_type<parallel>], threads = [#d2m.thread<unified>]}
      ins(%view : !dev) outs(%out : !dev) {
    %i = d2m.block_index(0) : index
    %j = d2m.block_index(1) : index
    %a = tensor.empty() : !blk
    %loaded = d2m.remote_load %a %view[%i, %j] : !blk, !dev -> !blk
    %b = tensor.empty() : !blk
    %copied = d2m.local_copy %loaded, %b indexing_maps = [#id, #id] : !blk, !blk -> !blk
    %stored = d2m.remote_store %out[%i, %j] %copied : !dev, !blk -> !dev
    d2m.yield %stored : (!dev)
  } : !dev
  return %r : !dev
}

// -----

// A mask of a view reads it through a view in the output's layout, so its operands are one type.
// CHECK-LABEL: func.func @mask_of_view
// CHECK: %[[VIEW:.*]] = d2m.view_layout
// CHECK: %[[BACK:.*]] = d2m.view_layout %[[VIEW]] remapping = #{{.*}} : memref<{{.*}}#ttcore.view<4>, #l1> -> memref<{{.*}}#ttcore.shard<4096x4096, 1>, #l1>
// CHECK: d2m.mask %[[BACK]], %{{.*}} logical_shape = [40, 64] fill_value = <neginf>
#sharded = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, -1]]> : tensor<1x2xi64>, l1, sharded>
!dev = tensor<2x2x1x1x!ttcore.tile<32x32, f32>, #sharded>
func.func @mask_of_view() -> !dev {
  %in = d2m.empty() : !dev
  %out = d2m.empty() : !dev
  %view = d2m.view_layout %in remapping = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)> : !dev -> !dev
  %m = d2m.mask %view, %out logical_shape = [40, 64] fill_value = <neginf> : !dev into !dev -> !dev
  return %m : !dev
}

// -----

// A host tensor the device pads (a 3x43x7 tensor's rows aligned to tiles) moves through a padded host buffer;
// one already laid out as the device holds it moves directly.
// CHECK-LABEL: func.func @host_transfers
// CHECK: %[[DEV:.*]] = memref.alloc() : memref<1x1x192x32xf32
// CHECK: %[[PAD:.*]] = memref.alloc() : memref<3x43x7xf32, #ttcore.host_layout<logical_shape = 3x43x7, host_strides = 2048x32x1, host_volume = 6144>>
// CHECK: memref.copy %arg0, %[[PAD]] : memref<3x43x7xf32> to memref<3x43x7xf32, #ttcore.host_layout
// CHECK: d2m.to_device %[[PAD]], %[[DEV]]
// CHECK: %[[HOST:.*]] = memref.alloc() : memref<3x43x7xf32>
// CHECK: %[[PAD2:.*]] = memref.alloc() : memref<3x43x7xf32, #ttcore.host_layout
// CHECK: d2m.to_host %[[DEV]], %[[PAD2]]
// CHECK: memref.copy %[[PAD2]], %[[HOST]]
// CHECK: d2m.to_device %arg1, %{{.*}} layout
// CHECK: return %[[HOST]]
#padded = #ttcore.metal_layout<logical_shape = 3x43x7, dim_alignments = 1x32x32, collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, l1, sharded>
#aligned = #ttcore.metal_layout<logical_shape = 64x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>
func.func @host_transfers(%arg0: tensor<3x43x7xf32>, %arg1: tensor<64x32xf32>) -> tensor<3x43x7xf32> {
  %0 = d2m.empty() : tensor<1x1x192x32xf32, #padded>
  %1 = d2m.to_device %arg0, %0 layout = #padded : tensor<3x43x7xf32> into tensor<1x1x192x32xf32, #padded> -> tensor<1x1x192x32xf32, #padded>
  %2 = d2m.empty() : tensor<3x43x7xf32>
  %3 = d2m.to_host %1, %2 layout = #padded : tensor<1x1x192x32xf32, #padded> into tensor<3x43x7xf32> -> tensor<3x43x7xf32>
  %4 = d2m.empty() : tensor<1x1x64x32xf32, #aligned>
  %5 = d2m.to_device %arg1, %4 layout = #aligned : tensor<64x32xf32> into tensor<1x1x64x32xf32, #aligned> -> tensor<1x1x64x32xf32, #aligned>
  return %3 : tensor<3x43x7xf32>
}
