// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// A DST tile with a constant scalar right-hand side: the SFPU's scalar call in place on the tile's slot, the scalar
// as its 32-bit parameter (a float's bits, an integer for si32 tiles and for power's exponent), the result moved to
// its own slot when that is another.

#l1 = #ttcore.memory_space<l1>
#dst = #ttcore.memory_space<dst>
!ftile = !ttcore.tile<32x32, f32>
!itile = !ttcore.tile<32x32, si32>

// CHECK-LABEL: func.func private @float_scalar
// 2.5 as f32 bits
// CHECK: %[[P:.*]] = arith.constant 1075838976 : i32
// CHECK-NEXT: ttkernel.binop_with_scalar_tile_init()
// CHECK-NEXT: ttkernel.add_unary_tile(%[[S:.*]], %[[P]])
// CHECK-NOT: copy_dest_values
// CHECK: %[[E:.*]] = arith.constant 3 : i32
// CHECK-NEXT: ttkernel.power_tile_init()
// CHECK-NEXT: ttkernel.power_tile(%{{.*}}, %[[E]])
func.func private @float_scalar() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<memref<1x!ftile, #l1>>
  %cb1 = d2m.get_cb(1) : !d2m.cb<memref<1x!ftile, #l1>>
  %c0 = arith.constant 0 : index
  %in = d2m.wait %cb0 : !d2m.cb<memref<1x!ftile, #l1>> -> memref<1x!ftile, #l1>
  %out = d2m.reserve %cb1 : !d2m.cb<memref<1x!ftile, #l1>> -> memref<1x!ftile, #l1>
  %dst = d2m.acquire_dst() : memref<8x!ftile, #dst>
  %t = memref.load %in[%c0] : memref<1x!ftile, #l1>
  memref.store %t, %dst[%c0] : memref<8x!ftile, #dst>
  %a = memref.load %dst[%c0] : memref<8x!ftile, #dst>
  %two_and_half = arith.constant 2.500000e+00 : f32
  %s = "d2m.tile_add"(%a, %two_and_half) : (!ftile, f32) -> !ftile
  memref.store %s, %dst[%c0] : memref<8x!ftile, #dst>
  %b = memref.load %dst[%c0] : memref<8x!ftile, #dst>
  %three = arith.constant 3.000000e+00 : f32
  %p = "d2m.tile_pow"(%b, %three) : (!ftile, f32) -> !ftile
  memref.store %p, %dst[%c0] : memref<8x!ftile, #dst>
  %r = memref.load %dst[%c0] : memref<8x!ftile, #dst>
  memref.store %r, %out[%c0] : memref<1x!ftile, #l1>
  return
}

// CHECK-LABEL: func.func private @int_scalar
// CHECK: ttkernel.copy_tile(
// the scalar's constant, then the parameter made of it
// CHECK-NEXT: arith.constant 7 : i32
// CHECK-NEXT: %[[P:.*]] = arith.constant 7 : i32
// CHECK-NEXT: ttkernel.binop_with_scalar_tile_init()
// CHECK-NEXT: ttkernel.sub_unary_tile_int32(%[[IN:.*]], %[[P]])
// CHECK-NEXT: ttkernel.copy_dest_values_init()
// CHECK-NEXT: ttkernel.copy_dest_values(%[[IN]], %{{.*}}, <si32>)
func.func private @int_scalar() attributes {d2m.thread = #d2m.thread<compute>} {
  %cb0 = d2m.get_cb(0) : !d2m.cb<memref<1x!itile, #l1>>
  %cb1 = d2m.get_cb(1) : !d2m.cb<memref<1x!itile, #l1>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = d2m.wait %cb0 : !d2m.cb<memref<1x!itile, #l1>> -> memref<1x!itile, #l1>
  %out = d2m.reserve %cb1 : !d2m.cb<memref<1x!itile, #l1>> -> memref<1x!itile, #l1>
  %dst = d2m.acquire_dst() : memref<8x!itile, #dst>
  %t = memref.load %in[%c0] : memref<1x!itile, #l1>
  memref.store %t, %dst[%c0] : memref<8x!itile, #dst>
  %a = memref.load %dst[%c0] : memref<8x!itile, #dst>
  %seven = arith.constant 7 : i32
  %s = "d2m.tile_sub"(%a, %seven) : (!itile, i32) -> !itile
  memref.store %s, %dst[%c1] : memref<8x!itile, #dst>
  %r = memref.load %dst[%c1] : memref<8x!itile, #dst>
  memref.store %r, %out[%c0] : memref<1x!itile, #l1>
  return
}
