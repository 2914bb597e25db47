// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// A tile op whose constant scalar right operand is its identity (x + 0, x - 0, x * 1, x / 1, x ** 1) is its left
// operand; any other scalar keeps the op.

// CHECK-LABEL: func.func @identities
// CHECK-NOT: d2m.tile_
// CHECK: return %arg0
func.func @identities(%t: !ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %0 = "d2m.tile_add"(%t, %zero) : (!ttcore.tile<32x32, bf16>, f32) -> !ttcore.tile<32x32, bf16>
  %1 = "d2m.tile_sub"(%0, %zero) : (!ttcore.tile<32x32, bf16>, f32) -> !ttcore.tile<32x32, bf16>
  %2 = "d2m.tile_mul"(%1, %one) : (!ttcore.tile<32x32, bf16>, f32) -> !ttcore.tile<32x32, bf16>
  %3 = "d2m.tile_div"(%2, %one) : (!ttcore.tile<32x32, bf16>, f32) -> !ttcore.tile<32x32, bf16>
  %4 = "d2m.tile_pow"(%3, %one) : (!ttcore.tile<32x32, bf16>, f32) -> !ttcore.tile<32x32, bf16>
  return %4 : !ttcore.tile<32x32, bf16>
}

// CHECK-LABEL: func.func @not_identities
// CHECK: "d2m.tile_add"(%arg0, %{{.*}})
// CHECK: "d2m.tile_mul"(%{{.*}}, %{{.*}})
func.func @not_identities(%t: !ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, bf16> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %0 = "d2m.tile_add"(%t, %one) : (!ttcore.tile<32x32, bf16>, f32) -> !ttcore.tile<32x32, bf16>
  %1 = "d2m.tile_mul"(%0, %zero) : (!ttcore.tile<32x32, bf16>, f32) -> !ttcore.tile<32x32, bf16>
  return %1 : !ttcore.tile<32x32, bf16>
}
