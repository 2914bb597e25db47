// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=KERNEL
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// ttir.where is a d2m.tile_where on the condition, true and false tiles (a broadcast operand spread first); the
// compute kernel puts each in a dst slot of its own and where_tile, templated on the tiles' data format, chooses.

// CHECK-LABEL: func.func @choose
// CHECK: linalg.generic
// CHECK: %[[B:.*]] = "d2m.tile_bcast"(%{{.*}}) <{bcast_type = #d2m<tile_bcast_type row>}>
// CHECK-NEXT: "d2m.tile_where"(%{{.*}}, %{{.*}}, %[[B]]) : (!ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
// KERNEL: emitc.call_opaque "unary_bcast"
// KERNEL: emitc.call_opaque "where_tile_init"()
// KERNEL-NEXT: emitc.call_opaque "where_tile"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {template_args = [#emitc.opaque<"DataFormat::Float16_b">]}
// TTRT: launch 0: {{[0-9,]+}} cycles on 6 core(s)
func.func @choose(%c: tensor<64x96xbf16>, %a: tensor<64x96xbf16>, %b: tensor<1x96xbf16>) -> tensor<64x96xbf16> {
  %0 = "ttir.where"(%c, %a, %b) : (tensor<64x96xbf16>, tensor<64x96xbf16>, tensor<1x96xbf16>) -> tensor<64x96xbf16>
  return %0 : tensor<64x96xbf16>
}
