// RUN: ttmlir-opt --ttcore-register-device --d2m-allocate %s | FileCheck %s
// A circular buffer (#ttcore.cb_layout<strides, buffers>) takes its whole shape's bytes once per backing buffer:
// 2 rows of 16384 bytes, double-buffered, is 65536 bytes.

!cb = memref<2x4x!ttcore.tile<32x32, f32>, #ttcore.cb_layout<16384x4096, 2>, #ttcore.memory_space<l1>>

// CHECK-LABEL: func.func @two_cbs
func.func @two_cbs() -> (!cb, !cb) {
  // CHECK: memref.alloc() {address = 1024 : i64, alignment = 16 : i64} : memref<2x4x!ttcore.tile<32x32, f32>, #ttcore.cb_layout<16384x4096, 2>, #l1>
  %a = memref.alloc() : !cb
  // CHECK: memref.alloc() {address = 66560 : i64, alignment = 16 : i64}
  %b = memref.alloc() : !cb
  return %a, %b : !cb, !cb
}
