// RUN: ttmlir-opt --ttcore-register-device --ttir-predicate-type-alignment --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: FileCheck %s --check-prefix=KERNEL --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// A comparison of si32 operands into a bf16 mask computes in bf16 (predicate type alignment casts its operands, as
// the pipeline does); a typecast from si32 to a float type is converted, and its compute kernel casts in dst with
// the SFPU's typecast_tile.

// CHECK-LABEL: func.func @mask
// CHECK: "d2m.tile_typecast"(%{{.*}}) : (!ttcore.tile<32x32, si32>) -> !ttcore.tile<32x32, bf16>
// CHECK: "d2m.tile_typecast"(%{{.*}}) : (!ttcore.tile<32x32, si32>) -> !ttcore.tile<32x32, bf16>
// CHECK: "d2m.tile_lt"(%{{.*}}, %{{.*}}) : (!ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
// CHECK-NOT: ttir.lt
// CHECK: return
func.func @mask(%a: tensor<40x70xsi32>, %b: tensor<40x70xsi32>) -> tensor<40x70xbf16> {
  %0 = "ttir.lt"(%a, %b) : (tensor<40x70xsi32>, tensor<40x70xsi32>) -> tensor<40x70xbf16>
  return %0 : tensor<40x70xbf16>
}

// CHECK-LABEL: func.func @cast
// CHECK: "d2m.tile_typecast"(%{{.*}}) : (!ttcore.tile<32x32, si32>) -> !ttcore.tile<32x32, f32>
// KERNEL: emitc.include "api/compute/eltwise_unary/typecast.h"
// KERNEL: emitc.call_opaque "typecast_tile_init"() {template_args = [#emitc.opaque<"static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Int32)">, #emitc.opaque<"static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Float32)">]}
// KERNEL-NEXT: emitc.call_opaque "typecast_tile"(%{{.*}}) {template_args = [#emitc.opaque<"static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Int32)">, #emitc.opaque<"static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Float32)">]}
// TTRT: launch {{[0-9]+}}: {{[0-9,]+}} cycles
func.func @cast(%a: tensor<40x70xsi32>) -> tensor<40x70xf32> {
  %0 = "ttir.typecast"(%a) : (tensor<40x70xsi32>) -> tensor<40x70xf32>
  return %0 : tensor<40x70xf32>
}
