// An elementwise gate, swish(x) * y (x * sigmoid(x) * y), on 128x256 f32: one model the TTNN and the
// TTMetal backends both compile.
module {
  func.func @swish_gate(%x: tensor<128x256xf32>, %y: tensor<128x256xf32>) -> tensor<128x256xf32> {
    %0 = "ttir.sigmoid"(%x) : (tensor<128x256xf32>) -> tensor<128x256xf32> loc("swish_gate.sigmoid")
    %1 = "ttir.multiply"(%x, %0) : (tensor<128x256xf32>, tensor<128x256xf32>) -> tensor<128x256xf32> loc("swish_gate.swish")
    %2 = "ttir.multiply"(%1, %y) : (tensor<128x256xf32>, tensor<128x256xf32>) -> tensor<128x256xf32> loc("swish_gate.gate")
    return %2 : tensor<128x256xf32>
  }
}
