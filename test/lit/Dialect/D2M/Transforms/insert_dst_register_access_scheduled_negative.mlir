// RUN: true
// Read by insert_dst_register_access_scheduled.mlir.

#l1 = #ttcore.memory_space<l1>
!t = !ttcore.tile<32x32, f32>
!block = memref<1x4x!ttcore.tile<32x32, f32>, #l1>
!cb = !d2m.cb<memref<1x4x!ttcore.tile<32x32, f32>, #l1>>
!shard = memref<1x1x1x4x!ttcore.tile<32x32, f32>, #ttcore.shard<16384x4096, 1>, #l1>

func.func @dynamic(%n: index, %a: !shard, %out: !shard) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%a : !shard) outs(%out : !shard) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !cb
    %cb1 = d2m.get_cb(1) : !cb
    %x = d2m.wait %cb0 : !cb -> !block
    %z = d2m.reserve %cb1 : !cb -> !block
    affine.for %j = 0 to %n {
      %0 = affine.load %x[0, %j] : !block
      // CHECK: insert_dst_register_access_scheduled_negative.mlir:[[# @LINE + 1]]:12: error: 'd2m.tile_exp' op requires constant-bounded affine.for loops for DST register access linearization
      %1 = "d2m.tile_exp"(%0) : (!t) -> !t
      affine.store %1, %z[0, %j] : !block
    }
  }
  return
}
