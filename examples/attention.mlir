// Single-head scaled dot-product attention over a 128-token sequence of width 64.
module {
  func.func @attention(%x: tensor<1x128x64xbf16>, %wq: tensor<64x64xbf16>, %wk: tensor<64x64xbf16>, %wv: tensor<64x64xbf16>, %scale: tensor<1x1x1xbf16>) -> tensor<1x128x64xbf16> {
    %q = "ttir.matmul"(%x, %wq) : (tensor<1x128x64xbf16>, tensor<64x64xbf16>) -> tensor<1x128x64xbf16> loc("attention.q_proj")
    %k = "ttir.matmul"(%x, %wk) : (tensor<1x128x64xbf16>, tensor<64x64xbf16>) -> tensor<1x128x64xbf16> loc("attention.k_proj")
    %v = "ttir.matmul"(%x, %wv) : (tensor<1x128x64xbf16>, tensor<64x64xbf16>) -> tensor<1x128x64xbf16> loc("attention.v_proj")
    %kt = "ttir.transpose"(%k) <{dim0 = -2 : si32, dim1 = -1 : si32}> : (tensor<1x128x64xbf16>) -> tensor<1x64x128xbf16> loc("attention.k_transpose")
    %scores = "ttir.matmul"(%q, %kt) : (tensor<1x128x64xbf16>, tensor<1x64x128xbf16>) -> tensor<1x128x128xbf16> loc("attention.scores")
    %scaled = "ttir.multiply"(%scores, %scale) : (tensor<1x128x128xbf16>, tensor<1x1x1xbf16>) -> tensor<1x128x128xbf16> loc("attention.scale")
    %probs = "ttir.softmax"(%scaled) <{dimension = -1 : si32}> : (tensor<1x128x128xbf16>) -> tensor<1x128x128xbf16> loc("attention.softmax")
    %out = "ttir.matmul"(%probs, %v) : (tensor<1x128x128xbf16>, tensor<1x128x64xbf16>) -> tensor<1x128x64xbf16> loc("attention.context")
    return %out : tensor<1x128x64xbf16>
  }
}
