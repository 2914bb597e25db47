// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run --result-file %t.json --artifact-dir %t.artifacts %t.ttnn | FileCheck %s --check-prefix=EXEC

// One decode step of a single-head Llama-style attention layer: RMS norm, rotary embedding on q and k
// (rotate-half via slice/neg/concat), KV-cache update at the current position, masked softmax
// attention over the cache, and a bf16 output.
// CHECK-LABEL: func.func @llama_decoder_step
// CHECK: "ttnn.rms_norm"
// CHECK: "ttnn.slice_static"
// CHECK: "ttnn.neg"
// CHECK: "ttnn.concat"
// CHECK: "ttnn.paged_update_cache"
// CHECK: "ttnn.where"
// CHECK: "ttnn.softmax"
// CHECK: "ttnn.typecast"
// CHECK-SAME: -> tensor<1x1x1x64xbf16
// EXEC: PASS
module {
  func.func @llama_decoder_step(%x: tensor<1x1x64xf32>, %norm_w: tensor<64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>, %cos: tensor<1x1x64xf32>, %sin: tensor<1x1x64xf32>, %k_cache: tensor<1x1x8x64xf32>, %v_cache: tensor<1x1x8x64xf32>, %pos: tensor<1xi32>, %mask: tensor<1x1x1x8xf32>, %scale: tensor<1x1x1x1xf32>) -> (tensor<1x1x1x64xbf16>, tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) {
    %h = "ttir.rms_norm"(%x, %norm_w) <{epsilon = 9.99999974E-6 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<1x1x64xf32>, tensor<64xf32>) -> tensor<1x1x64xf32> loc("layer.norm")
    %q = "ttir.matmul"(%h, %wq) : (tensor<1x1x64xf32>, tensor<64x64xf32>) -> tensor<1x1x64xf32> loc("layer.q")
    %k = "ttir.matmul"(%h, %wk) : (tensor<1x1x64xf32>, tensor<64x64xf32>) -> tensor<1x1x64xf32> loc("layer.k")
    %v = "ttir.matmul"(%h, %wv) : (tensor<1x1x64xf32>, tensor<64x64xf32>) -> tensor<1x1x64xf32> loc("layer.v")
    %q_lo = "ttir.slice_static"(%q) <{begins = [0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 1 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x1x64xf32>) -> tensor<1x1x32xf32>
    %q_hi = "ttir.slice_static"(%q) <{begins = [0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 1 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x1x64xf32>) -> tensor<1x1x32xf32>
    %q_hi_neg = "ttir.neg"(%q_hi) : (tensor<1x1x32xf32>) -> tensor<1x1x32xf32>
    %q_rot_half = "ttir.concat"(%q_hi_neg, %q_lo) <{dim = 2 : si32}> : (tensor<1x1x32xf32>, tensor<1x1x32xf32>) -> tensor<1x1x64xf32>
    %q_cos = "ttir.multiply"(%q, %cos) : (tensor<1x1x64xf32>, tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
    %q_sin = "ttir.multiply"(%q_rot_half, %sin) : (tensor<1x1x64xf32>, tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
    %q_rope = "ttir.add"(%q_cos, %q_sin) : (tensor<1x1x64xf32>, tensor<1x1x64xf32>) -> tensor<1x1x64xf32> loc("layer.q_rope")
    %k_lo = "ttir.slice_static"(%k) <{begins = [0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 1 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x1x64xf32>) -> tensor<1x1x32xf32>
    %k_hi = "ttir.slice_static"(%k) <{begins = [0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 1 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x1x64xf32>) -> tensor<1x1x32xf32>
    %k_hi_neg = "ttir.neg"(%k_hi) : (tensor<1x1x32xf32>) -> tensor<1x1x32xf32>
    %k_rot_half = "ttir.concat"(%k_hi_neg, %k_lo) <{dim = 2 : si32}> : (tensor<1x1x32xf32>, tensor<1x1x32xf32>) -> tensor<1x1x64xf32>
    %k_cos = "ttir.multiply"(%k, %cos) : (tensor<1x1x64xf32>, tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
    %k_sin = "ttir.multiply"(%k_rot_half, %sin) : (tensor<1x1x64xf32>, tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
    %k_rope = "ttir.add"(%k_cos, %k_sin) : (tensor<1x1x64xf32>, tensor<1x1x64xf32>) -> tensor<1x1x64xf32> loc("layer.k_rope")
    %k4 = "ttir.reshape"(%k_rope) <{shape = [1 : i32, 1 : i32, 1 : i32, 64 : i32]}> : (tensor<1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %v4 = "ttir.reshape"(%v) <{shape = [1 : i32, 1 : i32, 1 : i32, 64 : i32]}> : (tensor<1x1x64xf32>) -> tensor<1x1x1x64xf32>
    "ttir.update_cache"(%k_cache, %k4, %pos) <{batch_offset = 0 : i32}> : (tensor<1x1x8x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi32>) -> () loc("layer.k_cache")
    "ttir.update_cache"(%v_cache, %v4, %pos) <{batch_offset = 0 : i32}> : (tensor<1x1x8x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi32>) -> () loc("layer.v_cache")
    %q4 = "ttir.reshape"(%q_rope) <{shape = [1 : i32, 1 : i32, 1 : i32, 64 : i32]}> : (tensor<1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %kt = "ttir.permute"(%k_cache) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<1x1x8x64xf32>) -> tensor<1x1x64x8xf32>
    %scores = "ttir.matmul"(%q4, %kt) : (tensor<1x1x1x64xf32>, tensor<1x1x64x8xf32>) -> tensor<1x1x1x8xf32> loc("layer.scores")
    %scaled = "ttir.multiply"(%scores, %scale) : (tensor<1x1x1x8xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x8xf32>
    %ninf = "ttir.full"() <{fill_value = -1.000000e+09 : f32, shape = array<i32: 1, 1, 1, 8>}> : () -> tensor<1x1x1x8xf32>
    %masked = "ttir.where"(%mask, %scaled, %ninf) : (tensor<1x1x1x8xf32>, tensor<1x1x1x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32> loc("layer.mask")
    %probs = "ttir.softmax"(%masked) <{dimension = -1 : si32}> : (tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32> loc("layer.probs")
    %ctx = "ttir.matmul"(%probs, %v_cache) : (tensor<1x1x1x8xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x1x64xf32> loc("layer.context")
    %out = "ttir.typecast"(%ctx) : (tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xbf16> loc("layer.out")
    return %out, %k_cache, %v_cache : tensor<1x1x1x64xbf16>, tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>
  }
}
