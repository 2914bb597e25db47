// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel="force-compile-time-args=true" %s | FileCheck %s --check-prefix=CT
// Kernel functions split out of a generic (d2m.thread) become ttkernel kernels in place: their CB ports sorted into
// the arg spec (through d2m.physical_cb_ports), CB acquires and releases with the block's pages, tile loads their
// index in the block, tile stores packs, prints dprints.

#l1 = #ttcore.memory_space<l1>
!in = !d2m.cb<memref<2x3x!ttcore.tile<32x32, bf16>, #l1>>
!rm = !d2m.cb<memref<64x96xbf16, #l1>>

// CHECK-LABEL: func.func private @eltwise
// CHECK-SAME: ttkernel.arg_spec = #ttkernel.arg_spec<rt_args = [<arg_type = cb_port, operand_index = 1>, <arg_type = cb_port, operand_index = 7>]>
// CHECK-SAME: ttkernel.thread = #ttkernel.thread<compute>
// CHECK-NOT: d2m.
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[I1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[OUT:.*]] = ttkernel.get_common_arg_val(%[[I1]]) : (index) -> !ttkernel.cb<6, !ttcore.tile<32x32, bf16>>
// CHECK-NEXT: %[[I0:.*]] = arith.constant 0 : index
// CHECK: %[[IN:.*]] = ttkernel.get_common_arg_val(%[[I0]]) : (index) -> !ttkernel.cb<6, !ttcore.tile<32x32, bf16>>
// CHECK: %[[P:.*]] = arith.constant 6 : i32
// CHECK: ttkernel.cb_wait_front(%[[IN]], %[[P]])
// CHECK: ttkernel.cb_reserve_back(%[[OUT]],
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %[[C3]] : index
// CHECK: %[[T:.*]] = arith.addi %[[ROW]], %{{.*}} : index
// CHECK: ttkernel.pack_reconfig_data_format(%[[OUT]])
// CHECK: ttkernel.pack_tile(%[[T]], %[[OUT]], %{{.*}}, true)
// CHECK: ttkernel.cb_pop_front(%[[IN]],
// CHECK: ttkernel.cb_push_back(%[[OUT]],
// CHECK: ttkernel.dprint("tile {}\0A", %{{.*}}) : (index) -> ()

// CT-LABEL: func.func private @eltwise
// CT-SAME: ttkernel.arg_spec = #ttkernel.arg_spec< ct_args = [<arg_type = cb_port, operand_index = 1>, <arg_type = cb_port, operand_index = 7>]>
// CT: ttkernel.get_compile_time_arg_val(1) : () -> !ttkernel.cb<6, !ttcore.tile<32x32, bf16>>
// CT: ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<6, !ttcore.tile<32x32, bf16>>
func.func private @eltwise() attributes {d2m.physical_cb_ports = array<i64: 1, -1, 7>, d2m.thread = #d2m.thread<compute>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %out_cb = d2m.get_cb(2) : !in
  %in_cb = d2m.get_cb(0) : !in
  %in = d2m.wait %in_cb : !in -> memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
  %out = d2m.reserve %out_cb : !in -> memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
  %t = memref.load %in[%c1, %c2] : memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
  memref.store %t, %out[%c0, %c1] : memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
  d2m.pop %in_cb : !in
  d2m.push %out_cb : !in
  d2m.print("tile {}\n", %c1) : (index) -> ()
  return
}

// A row-major block of 64x96 bf16 is 6 tiles' worth of pages.
// CHECK-LABEL: func.func private @reader
// CHECK-SAME: ttkernel.thread = #ttkernel.thread<noc>
// CHECK: ttkernel.get_common_arg_val(%{{.*}}) : (index) -> !ttkernel.cb<6144, bf16>
// CHECK: %[[P:.*]] = arith.constant 6 : i32
// CHECK: ttkernel.cb_reserve_back(%{{.*}}, %[[P]])
func.func private @reader() attributes {d2m.thread = #d2m.thread<datamovement>} {
  %cb = d2m.get_cb(0) : !rm
  %m = d2m.reserve %cb : !rm -> memref<64x96xbf16, #l1>
  d2m.push %cb : !rm
  return
}

// A tile reached through a collapsed view of a block is indexed in the view.
// CHECK-LABEL: func.func private @through_view
// CHECK: ttkernel.cb_wait_front(%[[IN:.*]], %{{.*}})
// CHECK-NOT: memref.collapse_shape
// CHECK: ttkernel.pack_tile(%c4, %[[OUT:.*]], %c5, true)
func.func private @through_view() attributes {d2m.thread = #d2m.thread<compute>} {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %in_cb = d2m.get_cb(0) : !in
  %out_cb = d2m.get_cb(1) : !in
  %in = d2m.wait %in_cb : !in -> memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
  %out = d2m.reserve %out_cb : !in -> memref<2x3x!ttcore.tile<32x32, bf16>, #l1>
  %flat_in = memref.collapse_shape %in [[0, 1]] : memref<2x3x!ttcore.tile<32x32, bf16>, #l1> into memref<6x!ttcore.tile<32x32, bf16>, #l1>
  %flat_out = memref.collapse_shape %out [[0, 1]] : memref<2x3x!ttcore.tile<32x32, bf16>, #l1> into memref<6x!ttcore.tile<32x32, bf16>, #l1>
  %t = memref.load %flat_in[%c4] : memref<6x!ttcore.tile<32x32, bf16>, #l1>
  memref.store %t, %flat_out[%c5] : memref<6x!ttcore.tile<32x32, bf16>, #l1>
  return
}
