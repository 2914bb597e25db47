// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=2" %s | FileCheck %s --check-prefix=L2
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=2 experimental-weight-dtype=none" %s | FileCheck %s --check-prefix=KEPT
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1" %s | FileCheck %s --check-prefix=KEPT

// Left unset, experimental-weight-dtype is what the optimization level says: at level 2 a matmul weight stored in
// bf16 is kept as bfp_bf8 (converted once, in const-eval), as tt-metal's hand-tuned models keep theirs; an f32
// weight, asked for in full precision, stays f32. "none" at level 2, or a lower level, converts nothing.
module {
  func.func @two(%x: tensor<32x64xbf16>, %w: tensor<64x128xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %y: tensor<32x64xf32>, %v: tensor<64x96xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> (tensor<32x128xbf16>, tensor<32x96xf32>) {
    %0 = "ttir.matmul"(%x, %w) : (tensor<32x64xbf16>, tensor<64x128xbf16>) -> tensor<32x128xbf16>
    %1 = "ttir.matmul"(%y, %v) : (tensor<32x64xf32>, tensor<64x96xf32>) -> tensor<32x96xf32>
    return %0, %1 : tensor<32x128xbf16>, tensor<32x96xf32>
  }
}
// L2-LABEL: func.func private @two_const_eval_0
// L2: "ttnn.typecast"
// L2-SAME: -> tensor<64x128x!ttcore.tile<32x32, bfp_bf8>
// L2-NOT: func.func private
// L2-LABEL: func.func @two(
// L2: %[[W:[0-9]+]] = ttcore.load_cached(@two_const_eval_0, [%arg1])
// L2: "ttnn.matmul"(%arg0, %[[W]])
// L2: "ttnn.matmul"(%arg2, %arg3)
// L2-SAME: tensor<64x96xf32

// KEPT-NOT: tile<32x32, bfp_bf8>
// KEPT-LABEL: func.func @two(
// KEPT: "ttnn.matmul"(%arg0, %arg1)
// KEPT-SAME: tensor<64x128xbf16
// KEPT: "ttnn.matmul"(%arg2, %arg3)
// KEPT-NOT: tile<32x32, bfp_bf8>
