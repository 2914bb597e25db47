// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// Tile compute through DST in a compute kernel function: d2m.acquire_dst acquires the tile registers, a CB tile
// stored into DST is a copy_tile to that slot, an SFPU op calls on the DST slots it reads and the slot its result
// is stored to, a typecast names its formats, two CB tiles add on the FPU straight from their CBs, and a DST tile
// stored into a CB block is packed from its slot.

#l1 = #ttcore.memory_space<l1>
#dst = #ttcore.memory_space<dst>
!blk = memref<4x!ttcore.tile<32x32, f32>, #l1>
!dsts = memref<8x!ttcore.tile<32x32, f32>, #dst>

// CHECK-LABEL: func.func private @sfpu
// CHECK: %[[IN:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<4, !ttcore.tile<32x32, f32>>
// CHECK: %[[OUT:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<4, !ttcore.tile<32x32, bf16>>
// CHECK-NEXT: ttkernel.init_sfpu(%[[IN]], %[[OUT]])
// CHECK: ttkernel.compute_kernel_hw_startup(%[[IN]], %[[OUT]])
// CHECK: ttkernel.tile_regs_acquire()
// CHECK: scf.for %[[I:.*]] = %{{.*}} to
// CHECK: %[[HI:.*]] = arith.addi %[[I]], %c4
// CHECK: ttkernel.reconfig_data_format_srca(%[[IN]])
// CHECK-NEXT: ttkernel.copy_tile_init(%[[IN]])
// CHECK-NEXT: ttkernel.copy_tile(%[[IN]], %[[I]], %[[HI]])
// CHECK: ttkernel.exp_tile_init()
// CHECK-NEXT: ttkernel.exp_tile(%[[HI]])
// CHECK: ttkernel.binary_max_tile_init() : () -> ()
// CHECK: %[[R:.*]] = arith.addi %[[I]], %c1
// CHECK: ttkernel.binary_max_tile(%[[HI]], %[[I]], %[[R]])
// CHECK: ttkernel.typecast_tile_init(<f32>, <bf16>)
// CHECK-NEXT: ttkernel.typecast_tile(%[[R]], <f32>, <bf16>)
// CHECK: ttkernel.pack_tile(%[[R]], %[[OUT]], %[[I]], true)
// CHECK-NOT: d2m.
// CHECK-NOT: memref.
func.func private @sfpu() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<!blk>
  %cb1 = d2m.get_cb(1) : !d2m.cb<memref<4x!ttcore.tile<32x32, bf16>, #l1>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %in = d2m.wait %cb0 : !d2m.cb<!blk> -> !blk
  %out = d2m.reserve %cb1 : !d2m.cb<memref<4x!ttcore.tile<32x32, bf16>, #l1>> -> memref<4x!ttcore.tile<32x32, bf16>, #l1>
  %dst = d2m.acquire_dst() : !dsts
  scf.for %i = %c0 to %c4 step %c1 {
    %hi = arith.addi %i, %c4 : index
    %t = memref.load %in[%i] : !blk
    memref.store %t, %dst[%hi] : !dsts
    %a = memref.load %dst[%hi] : !dsts
    %e = "d2m.tile_exp"(%a) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
    memref.store %e, %dst[%hi] : !dsts
    %b = memref.load %dst[%hi] : !dsts
    %lo = memref.load %dst[%i] : !dsts
    %m = "d2m.tile_maximum"(%b, %lo) : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
    %r = arith.addi %i, %c1 : index
    memref.store %m, %dst[%r] : !dsts
    %d = memref.load %dst[%r] : !dsts
    %y = "d2m.tile_typecast"(%d) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, bf16>
    %yd = "d2m.dst_reinterpret_cast"(%y) : (!ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, f32>
    memref.store %yd, %dst[%r] : !dsts
    %z = memref.load %dst[%r] : !dsts
    %zb = "d2m.dst_reinterpret_cast"(%z) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, bf16>
    memref.store %zb, %out[%i] : memref<4x!ttcore.tile<32x32, bf16>, #l1>
  }
  return
}

// CHECK-LABEL: func.func private @fpu_add
// CHECK: %[[A:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<4, !ttcore.tile<32x32, f32>>
// CHECK: %[[B:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<4, !ttcore.tile<32x32, f32>>
// CHECK: %[[O:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<4, !ttcore.tile<32x32, f32>>
// CHECK-NEXT: ttkernel.binary_op_init_common(%[[A]], %[[B]], %[[O]])
// CHECK: ttkernel.add_tiles_init(%[[A]], %[[B]])
// CHECK-NEXT: ttkernel.add_tiles(%[[A]], %[[B]], %[[I:.*]], %[[I]], %[[I]])
func.func private @fpu_add() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<!blk>
  %cb1 = d2m.get_cb(1) : !d2m.cb<!blk>
  %cb2 = d2m.get_cb(2) : !d2m.cb<!blk>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = d2m.wait %cb0 : !d2m.cb<!blk> -> !blk
  %b = d2m.wait %cb1 : !d2m.cb<!blk> -> !blk
  %o = d2m.reserve %cb2 : !d2m.cb<!blk> -> !blk
  %dst = d2m.acquire_dst() : !dsts
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : !blk
    %y = memref.load %b[%i] : !blk
    %s = "d2m.tile_add"(%x, %y) : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
    memref.store %s, %dst[%i] : !dsts
    %r = memref.load %dst[%i] : !dsts
    memref.store %r, %o[%i] : !blk
  }
  return
}

// A CB tile times a broadcast one in DST: the broadcast into its slot, then (the product's slot being another)
// copied to the product's slot and multiplied there with the CB tile by binary_dest_reuse.
// CHECK-LABEL: func.func private @dest_reuse
// CHECK: %[[A:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<4, !ttcore.tile<32x32, f32>>
// CHECK: %[[B:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<4, !ttcore.tile<32x32, f32>>
// CHECK: %[[O:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<4, !ttcore.tile<32x32, f32>>
// CHECK-NEXT: ttkernel.binary_op_init_common(%[[A]], %[[A]], %[[O]])
// CHECK: ttkernel.unary_bcast_init(%[[B]], %[[B]], <col>)
// CHECK-NEXT: ttkernel.unary_bcast(%[[B]], %[[I:.*]], %[[I]], <col>)
// CHECK: %[[R:.*]] = arith.addi %[[I]], %c4
// CHECK-NEXT: ttkernel.copy_dest_values_init()
// CHECK-NEXT: ttkernel.copy_dest_values(%[[I]], %[[R]], <f32>)
// CHECK-NEXT: ttkernel.binary_dest_reuse_tiles_init(%[[A]], <mul>, <dest_to_srcb>)
// CHECK-NEXT: ttkernel.binary_dest_reuse_tiles(%[[A]], %[[I]], %[[R]], <mul>, <dest_to_srcb>)
// CHECK: ttkernel.pack_tile(%[[R]], %[[O]], %[[I]], true)
func.func private @dest_reuse() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<!blk>
  %cb1 = d2m.get_cb(1) : !d2m.cb<!blk>
  %cb2 = d2m.get_cb(2) : !d2m.cb<!blk>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = d2m.wait %cb0 : !d2m.cb<!blk> -> !blk
  %b = d2m.wait %cb1 : !d2m.cb<!blk> -> !blk
  %o = d2m.reserve %cb2 : !d2m.cb<!blk> -> !blk
  %dst = d2m.acquire_dst() : !dsts
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : !blk
    %y = memref.load %b[%i] : !blk
    %yb = "d2m.tile_bcast"(%y) <{bcast_type = #d2m<tile_bcast_type col>}> : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
    memref.store %yb, %dst[%i] : !dsts
    %yd = memref.load %dst[%i] : !dsts
    %p = "d2m.tile_mul"(%x, %yd) : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
    %r = arith.addi %i, %c4 : index
    memref.store %p, %dst[%r] : !dsts
    %z = memref.load %dst[%r] : !dsts
    memref.store %z, %o[%i] : !blk
  }
  return
}

// An integer max over the CB tiles of a loop into one constant DST slot: the slot seeded with INT32_MIN once,
// before the loops, once the registers are acquired (DST is written only between acquire and commit); each tile
// copied to the scratch slot, reduced over rows and columns, and maxed into the slot.
// CHECK-LABEL: func.func private @int_reduce
// CHECK: %[[IN:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<4, !ttcore.tile<32x32, si32>>
// CHECK: ttkernel.init_sfpu(%[[IN]],
// CHECK: ttkernel.tile_regs_acquire()
// CHECK-NEXT: %[[SLOT:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT: ttkernel.fill_tile_init()
// CHECK-NEXT: ttkernel.fill_tile_int(%[[SLOT]], %[[MIN]])
// CHECK: scf.for %[[K:.*]] = 
// CHECK-NEXT: %[[TMP:.*]] = arith.constant 3 : index
// CHECK-NEXT: ttkernel.copy_tile_init(%[[IN]])
// CHECK-NEXT: ttkernel.copy_tile(%[[IN]], %[[K]], %[[TMP]])
// CHECK-NEXT: ttkernel.sfpu_reduce_init(<reduce_max>, <si32>)
// CHECK-NEXT: ttkernel.sfpu_reduce(%[[TMP]], <reduce_max>, <si32>, <reduce_dim_col>)
// CHECK-NEXT: ttkernel.sfpu_reduce(%[[TMP]], <reduce_max>, <si32>, <reduce_dim_row>)
// CHECK-NEXT: ttkernel.binary_max_int32_tile_init()
// CHECK-NEXT: ttkernel.binary_max_int32_tile(%[[TMP]], %{{.*}}, %{{.*}})
func.func private @int_reduce() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<memref<4x!ttcore.tile<32x32, si32>, #l1>>
  %cb1 = d2m.get_cb(1) : !d2m.cb<memref<1x!ttcore.tile<32x32, si32>, #l1>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %in = d2m.wait %cb0 : !d2m.cb<memref<4x!ttcore.tile<32x32, si32>, #l1>> -> memref<4x!ttcore.tile<32x32, si32>, #l1>
  %out = d2m.reserve %cb1 : !d2m.cb<memref<1x!ttcore.tile<32x32, si32>, #l1>> -> memref<1x!ttcore.tile<32x32, si32>, #l1>
  %dst = d2m.acquire_dst() : memref<4x!ttcore.tile<32x32, si32>, #dst>
  scf.for %k = %c0 to %c4 step %c1 {
    %a = memref.load %in[%k] : memref<4x!ttcore.tile<32x32, si32>, #l1>
    %acc = memref.load %dst[%c1] : memref<4x!ttcore.tile<32x32, si32>, #dst>
    %r = "d2m.tile_sfpu_reduce_max"(%a, %acc) <{dst_scratch_index = 3 : i64, reduce_dim = #d2m<reduce_dim RC>}> : (!ttcore.tile<32x32, si32>, !ttcore.tile<32x32, si32>) -> !ttcore.tile<32x32, si32>
    memref.store %r, %dst[%c1] : memref<4x!ttcore.tile<32x32, si32>, #dst>
  }
  %res = memref.load %dst[%c1] : memref<4x!ttcore.tile<32x32, si32>, #dst>
  memref.store %res, %out[%c0] : memref<1x!ttcore.tile<32x32, si32>, #l1>
  return
}

// Tile matmuls accumulating into a DST slot: the matmul engine set up once, before the kernel's first loop; each
// product reconfigures it for its CBs and multiplies the CB tiles into the slot.
// CHECK-LABEL: func.func private @matmul
// CHECK: %[[A:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<4, !ttcore.tile<32x32, bf16>>
// CHECK: %[[B:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<4, !ttcore.tile<32x32, bf16>>
// CHECK: %[[O:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<1, !ttcore.tile<32x32, bf16>>
// CHECK: %[[T0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: ttkernel.mm_init(%[[A]], %[[B]], %[[O]], %[[T0]])
// CHECK-NEXT: scf.for %[[K:.*]] =
// CHECK: ttkernel.mm_init_short(%[[A]], %[[B]], %{{.*}})
// CHECK-NEXT: ttkernel.matmul_tiles(%[[A]], %[[B]], %[[K]], %[[K]], %{{.*}})
// CHECK-NOT: ttkernel.mm_init(
func.func private @matmul() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<memref<4x!ttcore.tile<32x32, bf16>, #l1>>
  %cb1 = d2m.get_cb(1) : !d2m.cb<memref<4x!ttcore.tile<32x32, bf16>, #l1>>
  %cb2 = d2m.get_cb(2) : !d2m.cb<memref<1x!ttcore.tile<32x32, bf16>, #l1>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %dst = d2m.acquire_dst() : memref<4x!ttcore.tile<32x32, bf16>, #dst>
  scf.for %k = %c0 to %c4 step %c1 {
    %a = d2m.wait %cb0 : !d2m.cb<memref<4x!ttcore.tile<32x32, bf16>, #l1>> -> memref<4x!ttcore.tile<32x32, bf16>, #l1>
    %b = d2m.wait %cb1 : !d2m.cb<memref<4x!ttcore.tile<32x32, bf16>, #l1>> -> memref<4x!ttcore.tile<32x32, bf16>, #l1>
    %x = memref.load %a[%k] : memref<4x!ttcore.tile<32x32, bf16>, #l1>
    %y = memref.load %b[%k] : memref<4x!ttcore.tile<32x32, bf16>, #l1>
    %acc = memref.load %dst[%c0] : memref<4x!ttcore.tile<32x32, bf16>, #dst>
    %r = "d2m.tile_matmul"(%x, %y, %acc) : (!ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
    memref.store %r, %dst[%c0] : memref<4x!ttcore.tile<32x32, bf16>, #dst>
  }
  %o = d2m.reserve %cb2 : !d2m.cb<memref<1x!ttcore.tile<32x32, bf16>, #l1>> -> memref<1x!ttcore.tile<32x32, bf16>, #l1>
  %res = memref.load %dst[%c0] : memref<4x!ttcore.tile<32x32, bf16>, #dst>
  memref.store %res, %o[%c0] : memref<1x!ttcore.tile<32x32, bf16>, #l1>
  return
}
