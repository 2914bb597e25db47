// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: not ttmlir-opt %S/tile_bcast_negative.mlir 2>&1 | FileCheck %S/tile_bcast_negative.mlir
// A tile spread from its first row, first column or first element, in generic form; the type round-trips.

// CHECK-LABEL: func.func @spread
// CHECK: "d2m.tile_bcast"(%arg0) <{bcast_type = #d2m<tile_bcast_type row>}> : (!ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
// CHECK: "d2m.tile_bcast"(%arg0) <{bcast_type = #d2m<tile_bcast_type col>}>
// CHECK: "d2m.tile_bcast"(%arg0) <{bcast_type = #d2m<tile_bcast_type scalar>}>
func.func @spread(%t: !ttcore.tile<32x32, bf16>) {
  %0 = "d2m.tile_bcast"(%t) <{bcast_type = #d2m<tile_bcast_type row>}> : (!ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
  %1 = "d2m.tile_bcast"(%t) <{bcast_type = #d2m<tile_bcast_type col>}> : (!ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
  %2 = "d2m.tile_bcast"(%t) <{bcast_type = #d2m<tile_bcast_type scalar>}> : (!ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
  return
}
