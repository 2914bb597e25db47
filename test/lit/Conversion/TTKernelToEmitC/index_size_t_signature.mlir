// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | FileCheck %s
// A function of kernel ops taking and giving indices takes and gives size_t.

// CHECK-LABEL: func.func @tile_count(%{{.*}}: !emitc.size_t) -> !emitc.size_t
// CHECK: %[[N:.*]] = emitc.mul %{{.*}}, %{{.*}} : (!emitc.size_t, !emitc.size_t) -> !emitc.size_t
// CHECK-NEXT: return %[[N]] : !emitc.size_t
func.func @tile_count(%rows: index) -> index attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %c4 = arith.constant 4 : index
  %n = arith.muli %rows, %c4 : index
  return %n : index
}
