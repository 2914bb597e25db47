// A two-layer perceptron in TOSA, as an MLIR front end (TFLite's converter, torch-mlir's TOSA backend) writes
// one: batched matmuls with zero points, a bias add, relu6 as a clamp, and a row sum of the logits.
//   ttmlir-opt --convert-tosa-to-ttir --ttir-to-ttnn-backend-pipeline examples/tosa_mlp.mlir -o mlp_ttnn.mlir
module {
  func.func @tosa_mlp(%x: tensor<1x32x64xf32>, %w1: tensor<1x64x128xf32>, %b1: tensor<1x1x128xf32>,
                      %w2: tensor<1x128x16xf32>, %b2: tensor<1x1x16xf32>) -> (tensor<1x32x16xf32>, tensor<1x32x1xf32>) {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %h = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x32x64xf32>, tensor<1x64x128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x128xf32> loc("tosa_mlp.fc1")
    %hb = tosa.add %h, %b1 : (tensor<1x32x128xf32>, tensor<1x1x128xf32>) -> tensor<1x32x128xf32> loc("tosa_mlp.bias1")
    %a = tosa.clamp %hb {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x32x128xf32>) -> tensor<1x32x128xf32> loc("tosa_mlp.relu6")
    %o = tosa.matmul %a, %w2, %zp, %zp : (tensor<1x32x128xf32>, tensor<1x128x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32> loc("tosa_mlp.fc2")
    %logits = tosa.add %o, %b2 : (tensor<1x32x16xf32>, tensor<1x1x16xf32>) -> tensor<1x32x16xf32> loc("tosa_mlp.logits")
    %rows = tosa.reduce_sum %logits {axis = 2 : i32} : (tensor<1x32x16xf32>) -> tensor<1x32x1xf32> loc("tosa_mlp.row_sum")
    return %logits, %rows : tensor<1x32x16xf32>, tensor<1x32x1xf32>
  }
}
