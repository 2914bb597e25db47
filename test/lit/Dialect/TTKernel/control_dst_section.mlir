// RUN: ttmlir-opt --ttkernel-control-dst-section %s | FileCheck %s
// RUN: ttmlir-opt --ttkernel-control-dst-section --ttkernel-control-dst-section %s | FileCheck %s
// Each acquire's packs get one commit/wait before the first and one release after the last; a loop holding a
// pack is bracketed whole; packs an acquire/release pair already brackets are left alone.

!cb = !ttkernel.cb<2, !ttcore.tile<32x32, bf16>>

// CHECK-LABEL: func.func @two_packs_one_section
// CHECK: ttkernel.tile_regs_acquire
// CHECK-NEXT: ttkernel.sqrt_tile
// CHECK-NEXT: ttkernel.tile_regs_commit
// CHECK-NEXT: ttkernel.tile_regs_wait
// CHECK-NEXT: ttkernel.pack_tile
// CHECK-NEXT: ttkernel.pack_tile
// CHECK-NEXT: ttkernel.tile_regs_release
// CHECK-NEXT: return
func.func @two_packs_one_section() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %out = ttkernel.get_compile_time_arg_val(0) : () -> !cb
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  ttkernel.tile_regs_acquire() : () -> ()
  ttkernel.sqrt_tile(%c0) : (index) -> ()
  ttkernel.pack_tile(%c0, %out, %c0, false) : (index, !cb, index) -> ()
  ttkernel.pack_tile(%c1, %out, %c1, false) : (index, !cb, index) -> ()
  return
}

// CHECK-LABEL: func.func @pack_in_loop
// CHECK: ttkernel.tile_regs_acquire
// CHECK-NEXT: ttkernel.tile_regs_commit
// CHECK-NEXT: ttkernel.tile_regs_wait
// CHECK-NEXT: scf.for
// CHECK-NEXT: ttkernel.pack_tile
// CHECK-NOT: ttkernel.tile_regs
// CHECK: }
// CHECK-NEXT: ttkernel.tile_regs_release
func.func @pack_in_loop() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %out = ttkernel.get_compile_time_arg_val(0) : () -> !cb
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  ttkernel.tile_regs_acquire() : () -> ()
  scf.for %i = %c0 to %c4 step %c1 {
    ttkernel.pack_tile(%i, %out, %i, false) : (index, !cb, index) -> ()
  }
  return
}

// CHECK-LABEL: func.func @already_bracketed
// CHECK: ttkernel.tile_regs_acquire
// CHECK-NEXT: ttkernel.tile_regs_commit
// CHECK-NEXT: ttkernel.tile_regs_wait
// CHECK-NEXT: ttkernel.pack_tile
// CHECK-NEXT: ttkernel.tile_regs_release
// CHECK-NEXT: return
func.func @already_bracketed() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %out = ttkernel.get_compile_time_arg_val(0) : () -> !cb
  %c0 = arith.constant 0 : index
  ttkernel.tile_regs_acquire() : () -> ()
  ttkernel.tile_regs_commit() : () -> ()
  ttkernel.tile_regs_wait() : () -> ()
  ttkernel.pack_tile(%c0, %out, %c0, false) : (index, !cb, index) -> ()
  ttkernel.tile_regs_release() : () -> ()
  return
}
