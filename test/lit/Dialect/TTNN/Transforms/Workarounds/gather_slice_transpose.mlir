// RUN: ttmlir-opt --ttcore-register-device --ttnn-layout --ttnn-workaround %s | FileCheck %s

// A rank-1 gather runs on (1, n) views along dim 1.
// CHECK-LABEL: func.func @gather_1d
// CHECK: "ttnn.reshape"(%arg0) <{shape = [1 : i32, 7 : i32]}>
// CHECK: "ttnn.reshape"(%arg1) <{shape = [1 : i32, 3 : i32]}>
// CHECK: "ttnn.gather"{{.*}}dim = 1 : si32
// CHECK: "ttnn.reshape"{{.*}}shape = [3 : i32]{{.*}}-> tensor<3xbf16
func.func @gather_1d(%x: tensor<7xbf16>, %i: tensor<3xui32>) -> tensor<3xbf16> {
  %0 = "ttnn.gather"(%x, %i) <{dim = 0 : si32}> : (tensor<7xbf16>, tensor<3xui32>) -> tensor<3xbf16>
  return %0 : tensor<3xbf16>
}

// Rows of 300000 f32 do not fit L1 twice: the slice runs with dim 1 last.
// CHECK-LABEL: func.func @long_rows
// CHECK: "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 2, 1>}>
// CHECK: "ttnn.slice_static"{{.*}}begins = [0 : i32, 0 : i32, 1 : i32], ends = [2 : i32, 300000 : i32, 3 : i32]
// CHECK: "ttnn.permute"{{.*}}permutation = array<i64: 0, 2, 1>{{.*}}-> tensor<2x2x300000xf32
func.func @long_rows(%x: tensor<2x4x300000xf32>) -> tensor<2x2x300000xf32> {
  %0 = "ttnn.slice_static"(%x) <{begins = [0 : i32, 1 : i32, 0 : i32], ends = [2 : i32, 3 : i32, 300000 : i32],
                                 step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<2x4x300000xf32>) -> tensor<2x2x300000xf32>
  return %0 : tensor<2x2x300000xf32>
}

// A transpose runs as the permute swapping its dims.
// CHECK-LABEL: func.func @transpose
// CHECK: "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 2, 1>}>
func.func @transpose(%x: tensor<2x32x64xbf16>) -> tensor<2x64x32xbf16> {
  %0 = "ttnn.transpose"(%x) <{dim0 = -1 : si32, dim1 = 1 : si32}> : (tensor<2x32x64xbf16>) -> tensor<2x64x32xbf16>
  return %0 : tensor<2x64x32xbf16>
}
