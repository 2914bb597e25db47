// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s --check-prefix=ROUND
// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// RUN: not ttmlir-opt %S/mask_negative.mlir 2>&1 | FileCheck %S/mask_negative.mlir
// A mask of padding: kept where padding exists and the fill matters, dropped when the fill is undef or the
// logical dims are aligned already.

#padded = #ttcore.metal_layout<logical_shape = 40x64, dim_alignments = 32x32, collapsed_intervals = dense<> : tensor<0x2xi64>, l1, sharded>
#exact = #ttcore.metal_layout<logical_shape = 64x32, dim_alignments = 32x32, collapsed_intervals = dense<> : tensor<0x2xi64>, l1, sharded>

// ROUND: d2m.mask %arg0, %arg1 logical_shape = [40, 64] fill_value = <neginf> : tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #layout> into
// CHECK-LABEL: func.func @kept
// CHECK: d2m.mask
func.func @kept(%a: tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded>, %b: tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded>) -> tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded> {
  %0 = d2m.mask %a, %b logical_shape = [40, 64] fill_value = <neginf> : tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded> into tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded> -> tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded>
  return %0 : tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded>
}

// CHECK-LABEL: func.func @undef_fill
// CHECK-NEXT: return %arg0
func.func @undef_fill(%a: tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded>, %b: tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded>) -> tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded> {
  %0 = d2m.mask %a, %b logical_shape = [40, 64] fill_value = <undef> : tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded> into tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded> -> tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded>
  return %0 : tensor<1x1x2x2x!ttcore.tile<32x32, bf16>, #padded>
}

// CHECK-LABEL: func.func @aligned
// CHECK-NEXT: return %arg0
func.func @aligned(%a: tensor<1x1x2x1x!ttcore.tile<32x32, bf16>, #exact>, %b: tensor<1x1x2x1x!ttcore.tile<32x32, bf16>, #exact>) -> tensor<1x1x2x1x!ttcore.tile<32x32, bf16>, #exact> {
  %0 = d2m.mask %a, %b logical_shape = [64, 32] fill_value = <zero> : tensor<1x1x2x1x!ttcore.tile<32x32, bf16>, #exact> into tensor<1x1x2x1x!ttcore.tile<32x32, bf16>, #exact> -> tensor<1x1x2x1x!ttcore.tile<32x32, bf16>, #exact>
  return %0 : tensor<1x1x2x1x!ttcore.tile<32x32, bf16>, #exact>
}
