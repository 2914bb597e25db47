// RUN: true
// Read by tile_bcast.mlir.

func.func @diagonal(%t: !ttcore.tile<32x32, bf16>) {
  // CHECK: tile_bcast_negative.mlir:[[# @LINE + 1]]:64: error: expected one of none, col, row, scalar for tile_bcast_type, got diagonal
  %0 = "d2m.tile_bcast"(%t) <{bcast_type = #d2m<tile_bcast_type diagonal>}> : (!ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
  return
}
