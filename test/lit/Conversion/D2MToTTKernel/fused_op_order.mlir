// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="enable-elementwise-fusion=true" -o %t.mlir %s
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// A fused compute kernel runs its tile ops in the order the fused body holds them (producers first): neg, exp
// (of -x), exp (of x), div, pow, each leaf copied into the lowest free dst slot just before the op reading it,
// and the tile packed from the slot the last op wrote.

// CHECK-LABEL: func.func private @compute_kernel7
// CHECK: emitc.call_opaque "tile_regs_acquire"
// CHECK: emitc.call_opaque "copy_tile"(%{{[0-9]+}}, %{{.*}}, %[[A:[0-9]+]])
// CHECK: emitc.call_opaque "negative_tile"(%[[N:[0-9]+]]) : (!emitc.size_t) -> ()
// CHECK: emitc.call_opaque "exp_tile"(%{{[0-9]+}}) : (!emitc.size_t) -> ()
// CHECK: emitc.call_opaque "copy_tile"
// CHECK: emitc.call_opaque "exp_tile"(%{{[0-9]+}}) : (!emitc.size_t) -> ()
// CHECK: emitc.call_opaque "div_binary_tile"(%[[Q:[0-9]+]], %{{[0-9]+}}, %[[Q]])
// CHECK: emitc.call_opaque "copy_tile"
// CHECK: emitc.call_opaque "power_binary_tile"(%[[P:[0-9]+]], %{{[0-9]+}}, %[[P]])
// CHECK: emitc.call_opaque "tile_regs_wait"
// CHECK-NEXT: emitc.call_opaque "pack_tile"(%[[P]], %{{.*}}, %{{.*}})
// CHECK-LABEL: func.func private @compute_kernel9
// CHECK: emitc.call_opaque "untilize_block"
// The host data is tilized on the device first (x, moved for two ops, and y: a program each), one program computes
// the fused ops, the last untilizes the result for the host.
// TTRT: launch 3: {{[0-9,]+}} cycles on 4 core(s); launch 4: {{[0-9,]+}} cycles on 4 core(s)
// TTRT-NOT: launch 5
func.func @cosh(%arg0: tensor<64x64xf32>, %arg1: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %1 = "ttir.neg"(%arg0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = "ttir.exp"(%1) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %5 = "ttir.exp"(%arg0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %7 = "ttir.div"(%5, %3) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %9 = "ttir.pow"(%7, %arg1) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %9 : tensor<64x64xf32>
}
