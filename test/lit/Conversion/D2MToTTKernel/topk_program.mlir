// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --convert-d2m-to-ttkernel %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline %s | FileCheck %s --check-prefix=EMITC
// A topk leaf's program: its one data-movement kernel (no CB of it moves data over the NoC) hands over the input
// shard and waits for both outputs; the compute kernel builds the index buffer (the scratch tile filled with its
// indices and transposed, column 0 spread over each tile plus the tile's offset) and runs the merge tree's groups,
// each loading a tile pair (values then indices) into dst 0..3, calling the topk calls and packing the pair, then
// copies the work buffers into the two outputs.

// 32x96, k = 40: three reduction tiles, the large-k fold: (0, 1), then the odd tail primed and folded twice.
// CHECK-LABEL: func.func @large_k
// CHECK: %{{.*}}:2 = d2m.generic {{{.*}}threads = [#d2m.thread<datamovement, @[[DM:datamovement_kernel[0-9]+]], dm_core = 1>, #d2m.thread<compute, @[[COMPUTE:compute_kernel[0-9]+]]>]}

// CHECK: func.func private @[[DM]]() {{.*}}rt_args = [<arg_type = cb_port, operand_index = 0>, <arg_type = cb_port, operand_index = 5>, <arg_type = cb_port, operand_index = 6>]
// CHECK: ttkernel.cb_reserve_back(%[[IN:[0-9]+]], %[[N:[a-z0-9_]+]])
// CHECK-NEXT: ttkernel.cb_push_back(%[[IN]], %[[N]])
// CHECK: ttkernel.cb_wait_front
// CHECK: ttkernel.cb_wait_front
// CHECK-NEXT: return
// CHECK: func.func private @[[COMPUTE]]()
// CHECK: ttkernel.experimental.fill_arange_tile
// CHECK: ttkernel.transpose_wh_tile
// CHECK: ttkernel.unary_bcast
// CHECK: ttkernel.add_unary_tile_int32
// CHECK: ttkernel.topk_tile_init
// CHECK: ttkernel.topk_local_sort(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: ttkernel.topk_merge
// CHECK: ttkernel.topk_rebuild
// CHECK: ttkernel.topk_local_sort
// CHECK-NOT: ttkernel.topk_merge
// CHECK: ttkernel.pack_tile
// CHECK: ttkernel.experimental.unpack_stall_on_pack
// CHECK: ttkernel.topk_local_sort
// CHECK: ttkernel.topk_merge
// CHECK: ttkernel.topk_rebuild
// CHECK: ttkernel.experimental.unpack_stall_on_pack
// CHECK: ttkernel.topk_rebuild
// CHECK-NOT: ttkernel.topk_
// CHECK: return
func.func @large_k(%arg0: tensor<32x96xf32>) -> (tensor<32x40xf32>, tensor<32x40xsi32>) {
  %v, %i = "ttir.topk"(%arg0) <{k = 40 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<32x96xf32>) -> (tensor<32x40xf32>, tensor<32x40xsi32>)
  return %v, %i : tensor<32x40xf32>, tensor<32x40xsi32>
}

// As C++: the arange in the lane CB's format, the topk calls by their compute-API names.
// EMITC: emitc.call_opaque "experimental::fill_arange_tile"(%{{.*}}) {template_args = [#emitc.opaque<"DataFormat::Int32">]}
// EMITC: emitc.call_opaque "topk_tile_init"()
// EMITC: emitc.call_opaque "topk_local_sort"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!emitc.size_t, i32, i32, i32) -> ()
// EMITC: emitc.call_opaque "topk_merge"(%{{.*}}, %{{.*}}, %{{.*}}) : (!emitc.size_t, i32, i32) -> ()
// EMITC: emitc.call_opaque "topk_rebuild"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!emitc.size_t, i32, i32, i32, i32, i32) -> ()
