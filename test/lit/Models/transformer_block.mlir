// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run --result-file %t.json --artifact-dir %t.artifacts %t.ttnn | FileCheck %s --check-prefix=EXEC

// A pre-norm transformer block: 4-head self-attention and a GELU MLP, each with a residual.
// CHECK-LABEL: func.func @transformer_block
// CHECK: "ttnn.layer_norm"
// CHECK: "ttnn.linear"
// CHECK: "ttnn.reshape"
// CHECK-SAME: -> tensor<1x32x4x16xf32
// CHECK: "ttnn.permute"
// CHECK-SAME: permutation = array<i64: 0, 2, 1, 3>
// CHECK: "ttnn.matmul"
// CHECK-SAME: -> tensor<1x4x32x32xf32
// CHECK: "ttnn.softmax"
// CHECK-SAME: dimension = -1 : si32
// CHECK: "ttnn.linear"{{.*}}activation = "gelu"
// CHECK: "ttnn.add"
// EXEC: PASS
module {
  func.func @transformer_block(%x: tensor<1x32x64xf32>, %g1: tensor<64xf32>, %be1: tensor<64xf32>, %wq: tensor<64x64xf32>, %bq: tensor<64xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %wv: tensor<64x64xf32>, %bv: tensor<64xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %scale: tensor<1x1x1x1xf32>, %g2: tensor<64xf32>, %be2: tensor<64xf32>, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>, %w2: tensor<128x64xf32>, %b2: tensor<64xf32>) -> tensor<1x32x64xf32> {
    %0 = "ttir.layer_norm"(%x, %g1, %be1) <{epsilon = 9.99999974E-6 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<1x32x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x32x64xf32> loc("attn.norm")
    %1 = "ttir.linear"(%0, %wq, %bq) : (tensor<1x32x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<1x32x64xf32> loc("attn.q")
    %2 = "ttir.linear"(%0, %wk, %bk) : (tensor<1x32x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<1x32x64xf32> loc("attn.k")
    %3 = "ttir.linear"(%0, %wv, %bv) : (tensor<1x32x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<1x32x64xf32> loc("attn.v")
    %4 = "ttir.reshape"(%1) <{shape = [1 : i32, 32 : i32, 4 : i32, 16 : i32]}> : (tensor<1x32x64xf32>) -> tensor<1x32x4x16xf32>
    %5 = "ttir.permute"(%4) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x4x16xf32>) -> tensor<1x4x32x16xf32>
    %6 = "ttir.reshape"(%2) <{shape = [1 : i32, 32 : i32, 4 : i32, 16 : i32]}> : (tensor<1x32x64xf32>) -> tensor<1x32x4x16xf32>
    %7 = "ttir.permute"(%6) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<1x32x4x16xf32>) -> tensor<1x4x16x32xf32>
    %8 = "ttir.reshape"(%3) <{shape = [1 : i32, 32 : i32, 4 : i32, 16 : i32]}> : (tensor<1x32x64xf32>) -> tensor<1x32x4x16xf32>
    %9 = "ttir.permute"(%8) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x4x16xf32>) -> tensor<1x4x32x16xf32>
    %10 = "ttir.matmul"(%5, %7) : (tensor<1x4x32x16xf32>, tensor<1x4x16x32xf32>) -> tensor<1x4x32x32xf32> loc("attn.scores")
    %11 = "ttir.multiply"(%10, %scale) : (tensor<1x4x32x32xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x32x32xf32>
    %12 = "ttir.softmax"(%11) <{dimension = -1 : si32}> : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32> loc("attn.probs")
    %13 = "ttir.matmul"(%12, %9) : (tensor<1x4x32x32xf32>, tensor<1x4x32x16xf32>) -> tensor<1x4x32x16xf32>
    %14 = "ttir.permute"(%13) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x4x32x16xf32>) -> tensor<1x32x4x16xf32>
    %15 = "ttir.reshape"(%14) <{shape = [1 : i32, 32 : i32, 64 : i32]}> : (tensor<1x32x4x16xf32>) -> tensor<1x32x64xf32>
    %16 = "ttir.linear"(%15, %wo, %bo) : (tensor<1x32x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<1x32x64xf32> loc("attn.out")
    %17 = "ttir.add"(%x, %16) : (tensor<1x32x64xf32>, tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    %18 = "ttir.layer_norm"(%17, %g2, %be2) <{epsilon = 9.99999974E-6 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<1x32x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x32x64xf32> loc("mlp.norm")
    %19 = "ttir.linear"(%18, %w1, %b1) : (tensor<1x32x64xf32>, tensor<64x128xf32>, tensor<128xf32>) -> tensor<1x32x128xf32> loc("mlp.up")
    %20 = "ttir.gelu"(%19) : (tensor<1x32x128xf32>) -> tensor<1x32x128xf32> loc("mlp.gelu")
    %21 = "ttir.linear"(%20, %w2, %b2) : (tensor<1x32x128xf32>, tensor<128x64xf32>, tensor<64xf32>) -> tensor<1x32x64xf32> loc("mlp.down")
    %22 = "ttir.add"(%17, %21) : (tensor<1x32x64xf32>, tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    return %22 : tensor<1x32x64xf32>
  }
}
