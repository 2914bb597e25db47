// RUN: true
// Checked by l1_words.mlir: each piece fails alone.

// CHECK: error: unsupported l1_addr_ptr element width 64; expected 8, 16, or 32
func.func @wide(%a: i32) {
  %p = ttkernel.reinterpret_cast(%a) : (i32) -> !ttkernel.l1_addr_ptr<64>
  return
}

// -----
// CHECK: error: 'ttkernel.load_from_l1' op result #0 must be i8, i16 or i32, but got f32
func.func @float_word(%p: !ttkernel.l1_addr_ptr, %i: i32) {
  %w = ttkernel.load_from_l1(%p, %i) : (!ttkernel.l1_addr_ptr, i32) -> f32
  return
}

// -----
// CHECK: error: 'ttkernel.remote_sram_write_u32' op operand #0 must be i32, an L1 address or a local semaphore, but got i64
func.func @wide_source(%s: i64, %d: !ttkernel.noc_addr) {
  ttkernel.remote_sram_write_u32(%s, %d) : (i64, !ttkernel.noc_addr) -> ()
  return
}
