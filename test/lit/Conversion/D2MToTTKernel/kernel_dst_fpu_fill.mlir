// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel --convert-ttkernel-to-emitc %s | FileCheck %s --check-prefix=EMITC
// An FPU tile reduction in a compute kernel function reduces a CB tile, scaled by the scaler CB's tile, into its
// accumulator's DST slot (the engines started on the input, scaler and output CBs; sum, max or mean as tt-metal's
// SUM, MAX or AVG pool, along rows, columns or both). A CB tile is transposed into its DST slot as the unpacker
// reads it. A tile of one value is filled in its DST slot by the SFPU (the engines started on the CB it packs into).

#l1 = #ttcore.memory_space<l1>
#dst = #ttcore.memory_space<dst>
!blk = memref<5x!ttcore.tile<32x32, f32>, #l1>
!one = memref<1x!ttcore.tile<32x32, f32>, #l1>
!dsts = memref<4x!ttcore.tile<32x32, f32>, #dst>

// CHECK-LABEL: func.func private @mean_rows
// CHECK-DAG: %[[IN:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<5, !ttcore.tile<32x32, f32>>
// CHECK-DAG: %[[SCALER:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
// CHECK-DAG: %[[OUT:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
// CHECK: ttkernel.compute_kernel_hw_startup(%[[IN]], %[[SCALER]], %[[OUT]])
// CHECK: scf.for %[[K:.*]] = %{{.*}} to
// CHECK: ttkernel.reduce_init(%[[IN]], %[[SCALER]], %[[OUT]], <reduce_avg>, <reduce_dim_row>)
// CHECK-NEXT: ttkernel.reduce_tile(%[[IN]], %[[SCALER]], %[[K]], %{{.*}}, %{{.*}}, <reduce_avg>, <reduce_dim_row>)
// CHECK-NEXT: ttkernel.reduce_uninit()
// CHECK: ttkernel.pack_tile
// CHECK-NOT: d2m.tile_reduce
// EMITC-LABEL: func.func private @mean_rows
// EMITC: emitc.call_opaque "reduce_tile"{{.*}}template_args = [#emitc.opaque<"PoolType::AVG">, #emitc.opaque<"ReduceDim::REDUCE_ROW">]
func.func private @mean_rows() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<!blk>
  %cb1 = d2m.get_cb(1) : !d2m.cb<!one>
  %cb2 = d2m.get_cb(2) : !d2m.cb<!one>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %in = d2m.wait %cb0 : !d2m.cb<!blk> -> !blk
  %scaler = d2m.wait %cb1 : !d2m.cb<!one> -> !one
  %out = d2m.reserve %cb2 : !d2m.cb<!one> -> !one
  %dst = d2m.acquire_dst() : !dsts
  scf.for %k = %c0 to %c5 step %c1 {
    %a = memref.load %in[%k] : !blk
    %s = memref.load %scaler[%c0] : !one
    %acc = memref.load %dst[%c0] : !dsts
    %r = "d2m.tile_reduce_mean"(%a, %s, %acc) <{reduce_dim = #d2m<reduce_dim R>}> : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
    memref.store %r, %dst[%c0] : !dsts
  }
  %t = memref.load %dst[%c0] : !dsts
  memref.store %t, %out[%c0] : !one
  d2m.push %cb2 : !d2m.cb<!one>
  d2m.pop %cb1 : !d2m.cb<!one>
  d2m.pop %cb0 : !d2m.cb<!blk>
  return
}

// CHECK-LABEL: func.func private @fill
// CHECK: %[[OUT:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
// CHECK: ttkernel.init_sfpu(%[[OUT]], %[[OUT]])
// CHECK: ttkernel.fill_tile_init()
// CHECK-NEXT: ttkernel.fill_tile(%{{.*}}, %{{.*}}) : (index, f32) -> ()
// CHECK: ttkernel.pack_tile
// CHECK-NOT: d2m.tile_fill
// EMITC-LABEL: func.func private @fill
// EMITC: emitc.call_opaque "fill_tile"(%{{.*}}, %{{.*}}) : (!emitc.size_t, f32) -> ()
func.func private @fill() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<!one>
  %c0 = arith.constant 0 : index
  %out = d2m.reserve %cb0 : !d2m.cb<!one> -> !one
  %dst = d2m.acquire_dst() : !dsts
  %v = arith.constant 6.250000e-03 : f32
  %t = d2m.tile_fill(%v) : f32 -> <32x32, f32>
  memref.store %t, %dst[%c0] : !dsts
  %u = memref.load %dst[%c0] : !dsts
  memref.store %u, %out[%c0] : !one
  d2m.push %cb0 : !d2m.cb<!one>
  return
}

// CHECK-LABEL: func.func private @transpose
// CHECK-DAG: %[[IN:.*]] = ttkernel.get_common_arg_val(%c0{{.*}}) : (index) -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
// CHECK-DAG: %[[OUT:.*]] = ttkernel.get_common_arg_val(%c1{{.*}}) : (index) -> !ttkernel.cb<1, !ttcore.tile<32x32, f32>>
// CHECK: ttkernel.compute_kernel_hw_startup(%[[IN]], %[[OUT]])
// CHECK: ttkernel.transpose_wh_init(%[[IN]], %[[OUT]])
// CHECK-NEXT: ttkernel.transpose_wh_tile(%[[IN]], %[[T:.*]], %[[T]])
// CHECK: ttkernel.pack_tile
// CHECK-NOT: d2m.tile_transpose
func.func private @transpose() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<!one>
  %cb1 = d2m.get_cb(1) : !d2m.cb<!one>
  %c0 = arith.constant 0 : index
  %in = d2m.wait %cb0 : !d2m.cb<!one> -> !one
  %out = d2m.reserve %cb1 : !d2m.cb<!one> -> !one
  %dst = d2m.acquire_dst() : !dsts
  %a = memref.load %in[%c0] : !one
  %t = "d2m.tile_transpose"(%a) : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
  memref.store %t, %dst[%c0] : !dsts
  %u = memref.load %dst[%c0] : !dsts
  memref.store %u, %out[%c0] : !one
  d2m.push %cb1 : !d2m.cb<!one>
  d2m.pop %cb0 : !d2m.cb<!one>
  return
}

// A block matmul of two CB blocks into the output block: the block engine set up once after the CBs are defined,
// then re-armed and run over the whole block from tile 0 of each CB into DST from slot 0 (rt x ct output tiles over
// kt; B's K tiles a row of B apart).
// CHECK-LABEL: func.func private @matmul_block
// CHECK-DAG: %[[A:.*]] = ttkernel.get_common_arg_val(%c0{{.*}}) : (index) -> !ttkernel.cb<8, !ttcore.tile<32x32, f32>>
// CHECK-DAG: %[[B:.*]] = ttkernel.get_common_arg_val(%c1{{.*}}) : (index) -> !ttkernel.cb<12, !ttcore.tile<32x32, f32>>
// CHECK-DAG: %[[C:.*]] = ttkernel.get_common_arg_val(%c2{{.*}}) : (index) -> !ttkernel.cb<6, !ttcore.tile<32x32, f32>>
// CHECK: ttkernel.mm_block_init(%[[A]], %[[B]], %[[C]], %c0_i32, %c3_i32, %c2_i32, %c4_i32)
// CHECK: ttkernel.mm_block_init_short(%[[A]], %[[B]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT: ttkernel.experimental.matmul_block(%[[A]], %[[B]], %[[Z:.*]], %[[Z]], %[[Z]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c3_i32_{{[0-9]+}})
// CHECK-NOT: d2m.tile_matmul_block
// EMITC-LABEL: func.func private @matmul_block
// EMITC: emitc.call_opaque "experimental::matmul_block"
func.func private @matmul_block() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<memref<2x4x!ttcore.tile<32x32, f32>, #l1>>
  %cb1 = d2m.get_cb(1) : !d2m.cb<memref<4x3x!ttcore.tile<32x32, f32>, #l1>>
  %cb2 = d2m.get_cb(2) : !d2m.cb<memref<2x3x!ttcore.tile<32x32, f32>, #l1>>
  %a = d2m.wait %cb0 : !d2m.cb<memref<2x4x!ttcore.tile<32x32, f32>, #l1>> -> memref<2x4x!ttcore.tile<32x32, f32>, #l1>
  %b = d2m.wait %cb1 : !d2m.cb<memref<4x3x!ttcore.tile<32x32, f32>, #l1>> -> memref<4x3x!ttcore.tile<32x32, f32>, #l1>
  %c = d2m.reserve %cb2 : !d2m.cb<memref<2x3x!ttcore.tile<32x32, f32>, #l1>> -> memref<2x3x!ttcore.tile<32x32, f32>, #l1>
  %dst = d2m.acquire_dst() : memref<8x!ttcore.tile<32x32, f32>, #dst>
  "d2m.tile_matmul_block"(%a, %b, %c) <{transpose_b = false}> : (memref<2x4x!ttcore.tile<32x32, f32>, #l1>, memref<4x3x!ttcore.tile<32x32, f32>, #l1>, memref<2x3x!ttcore.tile<32x32, f32>, #l1>) -> ()
  d2m.push %cb2 : !d2m.cb<memref<2x3x!ttcore.tile<32x32, f32>, #l1>>
  d2m.pop %cb1 : !d2m.cb<memref<4x3x!ttcore.tile<32x32, f32>, #l1>>
  d2m.pop %cb0 : !d2m.cb<memref<2x4x!ttcore.tile<32x32, f32>, #l1>>
  return
}
