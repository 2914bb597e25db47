// RUN: not ttmlir-opt --split-input-file %s 2>&1 | FileCheck %s
// Block tilize/untilize calls: scalars on one side and tiles on the other; the column passes of a pack untilize
// divide the row's column tiles and a constant block's.

!tiles = !ttkernel.cb<8, !ttcore.tile<32x32, f32>>
!rows = !ttkernel.cb<8192, f32>
func.func @tilize_into_scalars() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %in = ttkernel.get_compile_time_arg_val(0) : () -> !rows
  %r = arith.constant 1 : i32
  // CHECK: error: 'ttkernel.experimental.tilize_block' op Input to UntilizeOp or Output to TilizeOp must have tile element type
  ttkernel.experimental.tilize_block(%in, %in, %r, %r) : (!rows, !rows, i32, i32) -> ()
  return
}

// -----

!tiles = !ttkernel.cb<8, !ttcore.tile<32x32, f32>>
!rows = !ttkernel.cb<8192, f32>
func.func @passes_not_dividing() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %in = ttkernel.get_compile_time_arg_val(0) : () -> !tiles
  %out = ttkernel.get_compile_time_arg_val(1) : () -> !rows
  // CHECK: error: 'ttkernel.pack_untilize_init' op cols_per_dst_pass must divide total_col_tiles
  ttkernel.pack_untilize_init(%in, %out) {colsPerDstPass = 3 : i32, totalColTiles = 8 : i32} : (!tiles, !rows) -> ()
  return
}

// -----

!tiles = !ttkernel.cb<8, !ttcore.tile<32x32, f32>>
!rows = !ttkernel.cb<8192, f32>
func.func @block_not_whole_passes() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %in = ttkernel.get_compile_time_arg_val(0) : () -> !tiles
  %out = ttkernel.get_compile_time_arg_val(1) : () -> !rows
  %r = arith.constant 1 : i32
  %c = arith.constant 6 : i32
  // CHECK: error: 'ttkernel.experimental.pack_untilize_block' op block_c must be divisible by cols_per_dst_pass
  ttkernel.experimental.pack_untilize_block(%in, %out, %r, %c) {colsPerDstPass = 4 : i32, totalColTiles = 8 : i32} : (!tiles, !rows, i32, i32) -> ()
  return
}
