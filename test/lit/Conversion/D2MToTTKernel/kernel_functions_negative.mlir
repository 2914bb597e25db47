// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel --split-input-file %s 2>&1 >/dev/null | FileCheck %s
// A kernel function still of unified threads, or loading a scalar, is refused with a located error.

// CHECK: error: 'unified' threads are split into compute and data-movement kernels (d2m-split-unified-thread) before this pass
func.func private @unified() attributes {d2m.thread = #d2m.thread<unified>} {
  return
}

// -----

#l1 = #ttcore.memory_space<l1>
func.func private @scalar_load() attributes {d2m.thread = #d2m.thread<datamovement>} {
  %cb = d2m.get_cb(0) : !d2m.cb<memref<64x96xbf16, #l1>>
  %m = d2m.wait %cb : !d2m.cb<memref<64x96xbf16, #l1>> -> memref<64x96xbf16, #l1>
  %c0 = arith.constant 0 : index
  // CHECK: error: 'memref.load' in a kernel function is converted for tiles of a CB block only
  %v = memref.load %m[%c0, %c0] : memref<64x96xbf16, #l1>
  return
}
