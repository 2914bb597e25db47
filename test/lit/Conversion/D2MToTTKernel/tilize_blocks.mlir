// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s --check-prefix=CPP
// A block tilize or untilize in a kernel function: the engines started on both CBs, then tt-metal's block calls
// over the block's rows x cols tiles (leading dims folded into rows). Pack untilize goes through dst in passes of
// column tiles: as many as half of dst holds (8 tiles of bf16 here, 4 of f32), dividing the row's.

#l1 = #ttcore.memory_space<l1>

// CHECK-LABEL: func.func @tilize_bf16
// CHECK: %[[IN:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<16384, bf16>
// CHECK: %[[OUT:.*]] = ttkernel.get_common_arg_val({{.*}}) : (index) -> !ttkernel.cb<16, !ttcore.tile<32x32, bf16>>
// CHECK: %[[R:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[C:.*]] = arith.constant 2 : i32
// CHECK-NEXT: ttkernel.compute_kernel_hw_startup(%[[IN]], %[[OUT]])
// CHECK-NEXT: ttkernel.tilize_init(%[[IN]], %[[C]], %[[OUT]])
// CHECK-NEXT: ttkernel.experimental.tilize_block(%[[IN]], %[[OUT]], %[[R]], %[[C]])
// CPP: tilize_init(
// CPP: experimental::tilize_block(
func.func @tilize_bf16() attributes {d2m.thread = #d2m.thread<compute>} {
  %in_cb = d2m.get_cb(0) : !d2m.cb<memref<256x64xbf16, #l1>>
  %out_cb = d2m.get_cb(1) : !d2m.cb<memref<2x4x2x!ttcore.tile<32x32, bf16>, #l1>>
  %in = d2m.wait %in_cb : !d2m.cb<memref<256x64xbf16, #l1>> -> memref<256x64xbf16, #l1>
  %out = d2m.reserve %out_cb : !d2m.cb<memref<2x4x2x!ttcore.tile<32x32, bf16>, #l1>> -> memref<2x4x2x!ttcore.tile<32x32, bf16>, #l1>
  %r = "d2m.tile_tilize_block"(%in, %out) : (memref<256x64xbf16, #l1>, memref<2x4x2x!ttcore.tile<32x32, bf16>, #l1>) -> memref<2x4x2x!ttcore.tile<32x32, bf16>, #l1>
  d2m.push %out_cb : !d2m.cb<memref<2x4x2x!ttcore.tile<32x32, bf16>, #l1>>
  return
}

// CHECK-LABEL: func.func @untilize_f32
// CHECK: ttkernel.pack_untilize_init(%[[IN:.*]], %[[OUT:.*]]) {colsPerDstPass = 4 : i32, totalColTiles = 8 : i32}
// CHECK-NEXT: ttkernel.experimental.pack_untilize_block(%[[IN]], %[[OUT]], %{{.*}}, %{{.*}}) {colsPerDstPass = 4 : i32, totalColTiles = 8 : i32}
// CHECK-NEXT: ttkernel.pack_untilize_uninit(%[[OUT]])
// CPP: pack_untilize_init<4, 8>(
// CPP: experimental::pack_untilize_block<4, 8>(
// CPP: pack_untilize_uninit(
func.func @untilize_f32() attributes {d2m.thread = #d2m.thread<compute>} {
  %in_cb = d2m.get_cb(0) : !d2m.cb<memref<1x8x!ttcore.tile<32x32, f32>, #l1>>
  %out_cb = d2m.get_cb(1) : !d2m.cb<memref<32x256xf32, #l1>>
  %in = d2m.wait %in_cb : !d2m.cb<memref<1x8x!ttcore.tile<32x32, f32>, #l1>> -> memref<1x8x!ttcore.tile<32x32, f32>, #l1>
  %out = d2m.reserve %out_cb : !d2m.cb<memref<32x256xf32, #l1>> -> memref<32x256xf32, #l1>
  %r = "d2m.tile_untilize_block"(%in, %out) : (memref<1x8x!ttcore.tile<32x32, f32>, #l1>, memref<32x256xf32, #l1>) -> memref<32x256xf32, #l1>
  return
}

// A tilize into a collapsed view of the block counts the block's own rows and columns of tiles.
// CHECK-LABEL: func.func @tilize_collapsed
// CHECK: %[[R:.*]] = arith.constant 6 : i32
// CHECK-NEXT: %[[C:.*]] = arith.constant 2 : i32
// CHECK: ttkernel.experimental.tilize_block(%{{.*}}, %{{.*}}, %[[R]], %[[C]])
func.func @tilize_collapsed() attributes {d2m.thread = #d2m.thread<compute>} {
  %in_cb = d2m.get_cb(0) : !d2m.cb<memref<192x64xbf16, #l1>>
  %out_cb = d2m.get_cb(1) : !d2m.cb<memref<3x2x2x!ttcore.tile<32x32, bf16>, #l1>>
  %in = d2m.wait %in_cb : !d2m.cb<memref<192x64xbf16, #l1>> -> memref<192x64xbf16, #l1>
  %out = d2m.reserve %out_cb : !d2m.cb<memref<3x2x2x!ttcore.tile<32x32, bf16>, #l1>> -> memref<3x2x2x!ttcore.tile<32x32, bf16>, #l1>
  %flat = memref.collapse_shape %out [[0, 1, 2]] : memref<3x2x2x!ttcore.tile<32x32, bf16>, #l1> into memref<12x!ttcore.tile<32x32, bf16>, #l1>
  %r = "d2m.tile_tilize_block"(%in, %flat) : (memref<192x64xbf16, #l1>, memref<12x!ttcore.tile<32x32, bf16>, #l1>) -> memref<12x!ttcore.tile<32x32, bf16>, #l1>
  return
}
