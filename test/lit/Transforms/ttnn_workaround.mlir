// RUN: ttmlir-opt --ttcore-register-device --convert-ttir-to-ttnn --ttnn-layout --ttnn-workaround %s | FileCheck %s --check-prefix=SPEC
// RUN: ttmlir-opt --ttcore-register-device --convert-ttir-to-ttnn --ttnn-layout --ttnn-workaround --canonicalize --ttnn-decompose-layouts --mlir-print-local-scope %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --convert-ttir-to-ttnn --ttnn-layout --ttnn-workaround --canonicalize --ttnn-decompose-layouts %s | ttmlir-opt --mlir-print-local-scope | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn
// RUN: ttrt run --check-memory-leak %t.ttnn | FileCheck %s --check-prefix=EXEC

// Kernels that need particular layouts or data types get their operands converted and their results
// converted back (upstream's TTNN operand workarounds): by ttnn.to_tensor_spec, which canonicalization
// merges and --ttnn-decompose-layouts breaks into typecasts and tilizes/untilizes.

// Integer cumsum and concat (an unaligned one too) run in their own type: through f32 or bf16, values past
// 2^24 or 2^8 would round.
// SPEC-LABEL: func.func @integer_cumsum
// SPEC-NOT: "ttnn.to_tensor_spec"
// SPEC: "ttnn.cumsum"(%arg0) {{.*}} -> tensor<4x64xsi32
// CHECK-LABEL: func.func @integer_cumsum
// CHECK-NOT: "ttnn.typecast"
// CHECK: "ttnn.cumsum"(%arg0) {{.*}} -> tensor<4x64xsi32
// CHECK-NOT: "ttnn.typecast"
func.func @integer_cumsum(%arg0: tensor<4x64xsi32>) -> tensor<4x64xsi32> {
  %0 = "ttir.cumsum"(%arg0) <{dim = 1 : i64}> : (tensor<4x64xsi32>) -> tensor<4x64xsi32>
  return %0 : tensor<4x64xsi32>
}

// A rank-1 fill is made row-major, then tilized (si32 is filled as it is, as upstream's ttnn.full does).
// CHECK-LABEL: func.func @full_1d_si32
// CHECK: %[[FULL:.*]] = "ttnn.full"(%{{.*}}) <{dtype = #ttcore.supportedDataTypes<si32>, fill_value = 7 : i32, layout = #ttnn.layout<row_major>
// CHECK: "ttnn.to_layout"(%[[FULL]]) {{.*}} -> tensor<64xsi32{{.*}}tile<32x32, si32>
// CHECK-NOT: "ttnn.typecast"
func.func @full_1d_si32() -> tensor<64xsi32> {
  %0 = "ttir.full"() <{shape = array<i32: 64>, fill_value = 7 : i32}> : () -> tensor<64xsi32>
  return %0 : tensor<64xsi32>
}

// A strided slice reads unsigned integers narrower than 32 bits as u32; other data as it is.
// CHECK-LABEL: func.func @strided_slice
// CHECK: "ttnn.typecast"
// CHECK-SAME: -> tensor<64x128xui32
// CHECK: "ttnn.slice_static"
// CHECK-SAME: -> tensor<2x128xui32
// CHECK: "ttnn.typecast"
// CHECK-SAME: -> tensor<2x128xui16
// CHECK-LABEL: func.func @strided_slice_f32
// CHECK-NOT: "ttnn.typecast"
// CHECK: "ttnn.slice_static"(%arg0)
// CHECK-SAME: -> tensor<2x128xf32
func.func @strided_slice(%arg0: tensor<64x128xui16>) -> tensor<2x128xui16> {
  %0 = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32], ends = [64 : i32, 128 : i32], step = [32 : i32, 1 : i32]}> : (tensor<64x128xui16>) -> tensor<2x128xui16>
  return %0 : tensor<2x128xui16>
}

func.func @strided_slice_f32(%arg0: tensor<64x128xf32>) -> tensor<2x128xf32> {
  %0 = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32], ends = [64 : i32, 128 : i32], step = [32 : i32, 1 : i32]}> : (tensor<64x128xf32>) -> tensor<2x128xf32>
  return %0 : tensor<2x128xf32>
}

// A slice starting off the tile grid reads row-major data: the tiled argument is untilized for it.
// CHECK-LABEL: func.func @unaligned_slice
// CHECK: %[[RM:.*]] = "ttnn.to_layout"(%arg0) {{.*}} -> tensor<64x128xf32, {{.*}}memref<64x128xf32
// CHECK-NEXT: "ttnn.slice_static"(%[[RM]])
// CHECK-NEXT: "ttnn.to_layout"
// CHECK-SAME: -> tensor<60x128xf32, {{.*}}tile<32x32, f32>
func.func @unaligned_slice(%arg0: tensor<64x128xf32>) -> tensor<60x128xf32> {
  %0 = "ttir.slice_static"(%arg0) <{begins = [4 : i32, 0 : i32], ends = [64 : i32, 128 : i32], step = [1 : i32, 1 : i32]}> : (tensor<64x128xf32>) -> tensor<60x128xf32>
  return %0 : tensor<60x128xf32>
}

// CHECK-LABEL: func.func @integer_concat
// CHECK-NOT: "ttnn.typecast"
// CHECK: "ttnn.concat"(%arg0, %arg1)
// CHECK-SAME: -> tensor<41x32xsi32
// CHECK-NOT: "ttnn.typecast"
func.func @integer_concat(%arg0: tensor<20x32xsi32>, %arg1: tensor<21x32xsi32>) -> tensor<41x32xsi32> {
  %0 = "ttir.concat"(%arg0, %arg1) <{dim = 0 : si32}> : (tensor<20x32xsi32>, tensor<21x32xsi32>) -> tensor<41x32xsi32>
  return %0 : tensor<41x32xsi32>
}

// CHECK-LABEL: func.func @where_mixed_types
// CHECK: %[[P:.*]] = "ttnn.typecast"(%{{.*}}) : (tensor<32x32xbf16{{.*}} -> tensor<32x32xf32
// CHECK: "ttnn.where"(%[[P]],
func.func @where_mixed_types(%arg0: tensor<32x32xbf16>, %arg1: tensor<32x32xf32>, %arg2: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = "ttir.where"(%arg0, %arg1, %arg2) : (tensor<32x32xbf16>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @upsample
// CHECK: %[[BF16:.*]] = "ttnn.typecast"(%arg0) {{.*}} -> tensor<{{.*}}bf16
// CHECK-NEXT: "ttnn.to_layout"(%[[BF16]]) {{.*}} -> tensor<1x8x8x32xbf16, {{.*}}memref<64x32xbf16
// CHECK: "ttnn.upsample"
// CHECK-SAME: -> tensor<1x16x16x32xbf16
// A row-major bf16 result is tilized and cast back to f32 by one to_layout on the device.
// CHECK-NEXT: "ttnn.to_layout"
// CHECK-SAME: -> tensor<1x16x16x32xf32, {{.*}}tile<32x32, f32>
// CHECK-NOT: "ttnn.typecast"
func.func @upsample(%arg0: tensor<1x8x8x32xf32>) -> tensor<1x16x16x32xf32> {
  %0 = "ttir.upsample2d"(%arg0) <{scale_factor = 2 : si32}> : (tensor<1x8x8x32xf32>) -> tensor<1x16x16x32xf32>
  return %0 : tensor<1x16x16x32xf32>
}
// EXEC: PASS
