// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=KERNEL
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// The binary logical ops are one elementwise program each: both operands' truths (d2m.tile_nez, 1 where non-zero),
// multiplied (and), or the truth of their sum (or) or difference (xor). The compute kernel runs nez_tile on each
// operand in its dst slot (a broadcast operand spread first), the binary SFPU op, and nez_tile on the result.

// CHECK-LABEL: func.func @both
// CHECK: ^bb0(%[[A:.*]]: !ttcore.tile<32x32, f32>, %[[B:.*]]: !ttcore.tile<32x32, f32>, %{{.*}}: !ttcore.tile<32x32, f32>):
// CHECK-NEXT: %[[TA:.*]] = "d2m.tile_nez"(%[[A]])
// CHECK-NEXT: %[[TB:.*]] = "d2m.tile_nez"(%[[B]])
// CHECK-NEXT: %[[R:.*]] = "d2m.tile_mul"(%[[TA]], %[[TB]])
// CHECK-NEXT: linalg.yield %[[R]]
func.func @both(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.logical_and"(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @either
// CHECK: %[[B:.*]] = "d2m.tile_bcast"(%{{.*}}) <{bcast_type = #d2m<tile_bcast_type row>}>
// CHECK-NEXT: %[[TA:.*]] = "d2m.tile_nez"(%{{.*}})
// CHECK-NEXT: %[[TB:.*]] = "d2m.tile_nez"(%[[B]])
// CHECK-NEXT: %[[S:.*]] = "d2m.tile_add"(%[[TA]], %[[TB]])
// CHECK-NEXT: %[[R:.*]] = "d2m.tile_nez"(%[[S]])
// CHECK-NEXT: linalg.yield %[[R]]
// KERNEL-LABEL: func.func private @compute_kernel
// KERNEL: emitc.call_opaque "nez_tile_init"()
// KERNEL-NEXT: emitc.call_opaque "nez_tile"
// KERNEL: emitc.call_opaque "unary_bcast"
// KERNEL: emitc.call_opaque "nez_tile"
// KERNEL: emitc.call_opaque "add_binary_tile"
// KERNEL: emitc.call_opaque "nez_tile_init"()
// KERNEL-NEXT: emitc.call_opaque "nez_tile"
// KERNEL-NEXT: emitc.call_opaque "tile_regs_commit"
// TTRT: launch 0: {{[0-9,]+}} cycles on 4 core(s)
// TTRT: launch 0: {{[0-9,]+}} cycles on 6 core(s)
func.func @either(%a: tensor<64x96xbf16>, %b: tensor<1x96xbf16>) -> tensor<64x96xbf16> {
  %0 = "ttir.logical_or"(%a, %b) : (tensor<64x96xbf16>, tensor<1x96xbf16>) -> tensor<64x96xbf16>
  return %0 : tensor<64x96xbf16>
}

// CHECK-LABEL: func.func @one_of
// CHECK: %[[TA:.*]] = "d2m.tile_nez"(%{{.*}}) : (!ttcore.tile<32x32, si32>) -> !ttcore.tile<32x32, si32>
// CHECK-NEXT: %[[TB:.*]] = "d2m.tile_nez"
// CHECK-NEXT: %[[D:.*]] = "d2m.tile_sub"(%[[TA]], %[[TB]])
// CHECK-NEXT: %[[R:.*]] = "d2m.tile_nez"(%[[D]])
// KERNEL: emitc.call_opaque "nez_tile_int32"
// KERNEL: emitc.call_opaque "nez_tile_int32"
// TTRT: launch 0: {{[0-9,]+}} cycles on 1 core(s)
func.func @one_of(%a: tensor<32x32xsi32>, %b: tensor<32x32xsi32>) -> tensor<32x32xsi32> {
  %0 = "ttir.logical_xor"(%a, %b) : (tensor<32x32xsi32>, tensor<32x32xsi32>) -> tensor<32x32xsi32>
  return %0 : tensor<32x32xsi32>
}
