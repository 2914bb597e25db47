// RUN: ttmlir-opt --d2m-normalize-thread-args %s | FileCheck %s
// RUN: ttmlir-opt --d2m-normalize-thread-args --d2m-generic-regions-to-funcs %s | FileCheck %s --check-prefix=FUNCS
// A generic has 32 circular-buffer ports: with 33 CB operands, the last additional one shares the port of the first
// additional one whose uses it never overlaps; when the last one's uses overlap every other's, the one before it
// shares instead.

!m = memref<1x1xf32, #ttcore.memory_space<l1>>
!cb = !d2m.cb<memref<1x1xf32, #ttcore.memory_space<l1>>>

// CHECK-LABEL: func.func @sequential
// CHECK: d2m.generic {{[{]}}block_factors = [], d2m.physical_cb_ports = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 2>
// FUNCS: func.func private @compute_kernel0() attributes {d2m.physical_cb_ports = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 2>, d2m.thread
func.func @sequential(%in: !m, %out: !m, %a0: !m, %a1: !m, %a2: !m, %a3: !m, %a4: !m, %a5: !m, %a6: !m, %a7: !m, %a8: !m, %a9: !m, %a10: !m, %a11: !m, %a12: !m, %a13: !m, %a14: !m, %a15: !m, %a16: !m, %a17: !m, %a18: !m, %a19: !m, %a20: !m, %a21: !m, %a22: !m, %a23: !m, %a24: !m, %a25: !m, %a26: !m, %a27: !m, %a28: !m, %a29: !m, %a30: !m) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%in : !m) outs(%out : !m) additionalArgs(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19, %a20, %a21, %a22, %a23, %a24, %a25, %a26, %a27, %a28, %a29, %a30 : !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m) {
  ^compute0:
    %cb0 = d2m.get_cb(0) : !cb
    d2m.push %cb0 : !cb
    %cb1 = d2m.get_cb(1) : !cb
    d2m.push %cb1 : !cb
    %cb2 = d2m.get_cb(2) : !cb
    d2m.push %cb2 : !cb
    %cb3 = d2m.get_cb(3) : !cb
    d2m.push %cb3 : !cb
    %cb4 = d2m.get_cb(4) : !cb
    d2m.push %cb4 : !cb
    %cb5 = d2m.get_cb(5) : !cb
    d2m.push %cb5 : !cb
    %cb6 = d2m.get_cb(6) : !cb
    d2m.push %cb6 : !cb
    %cb7 = d2m.get_cb(7) : !cb
    d2m.push %cb7 : !cb
    %cb8 = d2m.get_cb(8) : !cb
    d2m.push %cb8 : !cb
    %cb9 = d2m.get_cb(9) : !cb
    d2m.push %cb9 : !cb
    %cb10 = d2m.get_cb(10) : !cb
    d2m.push %cb10 : !cb
    %cb11 = d2m.get_cb(11) : !cb
    d2m.push %cb11 : !cb
    %cb12 = d2m.get_cb(12) : !cb
    d2m.push %cb12 : !cb
    %cb13 = d2m.get_cb(13) : !cb
    d2m.push %cb13 : !cb
    %cb14 = d2m.get_cb(14) : !cb
    d2m.push %cb14 : !cb
    %cb15 = d2m.get_cb(15) : !cb
    d2m.push %cb15 : !cb
    %cb16 = d2m.get_cb(16) : !cb
    d2m.push %cb16 : !cb
    %cb17 = d2m.get_cb(17) : !cb
    d2m.push %cb17 : !cb
    %cb18 = d2m.get_cb(18) : !cb
    d2m.push %cb18 : !cb
    %cb19 = d2m.get_cb(19) : !cb
    d2m.push %cb19 : !cb
    %cb20 = d2m.get_cb(20) : !cb
    d2m.push %cb20 : !cb
    %cb21 = d2m.get_cb(21) : !cb
    d2m.push %cb21 : !cb
    %cb22 = d2m.get_cb(22) : !cb
    d2m.push %cb22 : !cb
    %cb23 = d2m.get_cb(23) : !cb
    d2m.push %cb23 : !cb
    %cb24 = d2m.get_cb(24) : !cb
    d2m.push %cb24 : !cb
    %cb25 = d2m.get_cb(25) : !cb
    d2m.push %cb25 : !cb
    %cb26 = d2m.get_cb(26) : !cb
    d2m.push %cb26 : !cb
    %cb27 = d2m.get_cb(27) : !cb
    d2m.push %cb27 : !cb
    %cb28 = d2m.get_cb(28) : !cb
    d2m.push %cb28 : !cb
    %cb29 = d2m.get_cb(29) : !cb
    d2m.push %cb29 : !cb
    %cb30 = d2m.get_cb(30) : !cb
    d2m.push %cb30 : !cb
    %cb31 = d2m.get_cb(31) : !cb
    d2m.push %cb31 : !cb
    %cb32 = d2m.get_cb(32) : !cb
    d2m.push %cb32 : !cb
  }
  return
}

// CHECK-LABEL: func.func @overlapping
// CHECK: d2m.physical_cb_ports = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 2, 32>
func.func @overlapping(%in: !m, %out: !m, %a0: !m, %a1: !m, %a2: !m, %a3: !m, %a4: !m, %a5: !m, %a6: !m, %a7: !m, %a8: !m, %a9: !m, %a10: !m, %a11: !m, %a12: !m, %a13: !m, %a14: !m, %a15: !m, %a16: !m, %a17: !m, %a18: !m, %a19: !m, %a20: !m, %a21: !m, %a22: !m, %a23: !m, %a24: !m, %a25: !m, %a26: !m, %a27: !m, %a28: !m, %a29: !m, %a30: !m) {
  d2m.generic {block_factors = [], grid = #ttcore.grid<1x1>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<compute>]}
      ins(%in : !m) outs(%out : !m) additionalArgs(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19, %a20, %a21, %a22, %a23, %a24, %a25, %a26, %a27, %a28, %a29, %a30 : !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m, !m) {
  ^compute0:
    %first = d2m.get_cb(32) : !cb
    %cb0 = d2m.get_cb(0) : !cb
    d2m.push %cb0 : !cb
    %cb1 = d2m.get_cb(1) : !cb
    d2m.push %cb1 : !cb
    %cb2 = d2m.get_cb(2) : !cb
    d2m.push %cb2 : !cb
    %cb3 = d2m.get_cb(3) : !cb
    d2m.push %cb3 : !cb
    %cb4 = d2m.get_cb(4) : !cb
    d2m.push %cb4 : !cb
    %cb5 = d2m.get_cb(5) : !cb
    d2m.push %cb5 : !cb
    %cb6 = d2m.get_cb(6) : !cb
    d2m.push %cb6 : !cb
    %cb7 = d2m.get_cb(7) : !cb
    d2m.push %cb7 : !cb
    %cb8 = d2m.get_cb(8) : !cb
    d2m.push %cb8 : !cb
    %cb9 = d2m.get_cb(9) : !cb
    d2m.push %cb9 : !cb
    %cb10 = d2m.get_cb(10) : !cb
    d2m.push %cb10 : !cb
    %cb11 = d2m.get_cb(11) : !cb
    d2m.push %cb11 : !cb
    %cb12 = d2m.get_cb(12) : !cb
    d2m.push %cb12 : !cb
    %cb13 = d2m.get_cb(13) : !cb
    d2m.push %cb13 : !cb
    %cb14 = d2m.get_cb(14) : !cb
    d2m.push %cb14 : !cb
    %cb15 = d2m.get_cb(15) : !cb
    d2m.push %cb15 : !cb
    %cb16 = d2m.get_cb(16) : !cb
    d2m.push %cb16 : !cb
    %cb17 = d2m.get_cb(17) : !cb
    d2m.push %cb17 : !cb
    %cb18 = d2m.get_cb(18) : !cb
    d2m.push %cb18 : !cb
    %cb19 = d2m.get_cb(19) : !cb
    d2m.push %cb19 : !cb
    %cb20 = d2m.get_cb(20) : !cb
    d2m.push %cb20 : !cb
    %cb21 = d2m.get_cb(21) : !cb
    d2m.push %cb21 : !cb
    %cb22 = d2m.get_cb(22) : !cb
    d2m.push %cb22 : !cb
    %cb23 = d2m.get_cb(23) : !cb
    d2m.push %cb23 : !cb
    %cb24 = d2m.get_cb(24) : !cb
    d2m.push %cb24 : !cb
    %cb25 = d2m.get_cb(25) : !cb
    d2m.push %cb25 : !cb
    %cb26 = d2m.get_cb(26) : !cb
    d2m.push %cb26 : !cb
    %cb27 = d2m.get_cb(27) : !cb
    d2m.push %cb27 : !cb
    %cb28 = d2m.get_cb(28) : !cb
    d2m.push %cb28 : !cb
    %cb29 = d2m.get_cb(29) : !cb
    d2m.push %cb29 : !cb
    %cb30 = d2m.get_cb(30) : !cb
    d2m.push %cb30 : !cb
    %cb31 = d2m.get_cb(31) : !cb
    d2m.push %cb31 : !cb
    d2m.push %first : !cb
  }
  return
}
