// RUN: true
// Read by tile_reduce.mlir.

func.func @no_dim(%t: !ttcore.tile<32x32, f32>) {
  // CHECK: tile_reduce_negative.mlir:[[# @LINE + 1]]:8: error: 'd2m.tile_reduce_max' op requires attribute 'reduce_dim'
  %0 = "d2m.tile_reduce_max"(%t, %t, %t) : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
  return
}

// -----

func.func @integer_fpu(%t: !ttcore.tile<32x32, si32>) {
  // CHECK: error: 'd2m.tile_reduce_mean' op requires float tile element types; use the matching tile_sfpu_reduce_* op for integer reductions
  %0 = "d2m.tile_reduce_mean"(%t, %t, %t) {reduce_dim = #d2m<reduce_dim R>} : (!ttcore.tile<32x32, si32>, !ttcore.tile<32x32, si32>, !ttcore.tile<32x32, si32>) -> !ttcore.tile<32x32, si32>
  return
}

// -----

func.func @float_sfpu(%t: !ttcore.tile<32x32, bf16>) {
  // CHECK: error: 'd2m.tile_sfpu_reduce_sum' op requires signed 32-bit integer tile element types; use the matching tile_reduce_* op for float reductions
  %0 = "d2m.tile_sfpu_reduce_sum"(%t, %t) {reduce_dim = #d2m<reduce_dim R>} : (!ttcore.tile<32x32, bf16>, !ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16>
  return
}

// -----

func.func @bad_dim(%t: !ttcore.tile<32x32, f32>) {
  // CHECK: error: expected one of R, C, RC for reduce_dim, got X
  %0 = "d2m.tile_reduce_sum"(%t, %t, %t) {reduce_dim = #d2m<reduce_dim X>} : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
  return
}
