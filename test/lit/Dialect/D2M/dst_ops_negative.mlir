// RUN: true
// Read by dst_ops.mlir.

func.func @not_dst() {
  // CHECK: dst_ops_negative.mlir:[[# @LINE + 1]]:8: error: 'd2m.acquire_dst' op result #0 must be register memoryspace memref type
  %0 = d2m.acquire_dst() : memref<4x!ttcore.tile<32x32, f32>, #ttcore.memory_space<l1>>
  return
}

// -----

func.func @flag(%f: i1) {
  // CHECK: error: use of value '%f' expects different type than prior uses: 'i32' vs 'i1'
  d2m.set_l1_accumulate(%f)
  return
}

// -----

func.func @where_arity(%t: !ttcore.tile<32x32, f32>) {
  // CHECK: error: 'd2m.tile_where' op Expected 3 operands, but got 2
  %0 = "d2m.tile_where"(%t, %t) : (!ttcore.tile<32x32, f32>, !ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
  return
}

// -----

func.func @bcast_kind(%t: !ttcore.tile<32x32, f32>) {
  // CHECK: error: expected one of none, col, row, scalar for tile_bcast_type, got diag
  %0 = "d2m.tile_bcast"(%t) <{bcast_type = #d2m<tile_bcast_type diag>}> : (!ttcore.tile<32x32, f32>) -> !ttcore.tile<32x32, f32>
  return
}
