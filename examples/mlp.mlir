// A two-layer MNIST MLP: 784 -> 256 -> 10, relu and softmax.
module {
  func.func @mlp(%input: tensor<32x784xf32>, %w1: tensor<784x256xf32>, %b1: tensor<1x256xf32>, %w2: tensor<256x10xf32>, %b2: tensor<1x10xf32>) -> tensor<32x10xf32> {
    %0 = "ttir.matmul"(%input, %w1) : (tensor<32x784xf32>, tensor<784x256xf32>) -> tensor<32x256xf32> loc("mlp.fc1")
    %1 = "ttir.add"(%0, %b1) : (tensor<32x256xf32>, tensor<1x256xf32>) -> tensor<32x256xf32> loc("mlp.fc1_bias")
    %2 = "ttir.relu"(%1) : (tensor<32x256xf32>) -> tensor<32x256xf32> loc("mlp.relu")
    %3 = "ttir.matmul"(%2, %w2) : (tensor<32x256xf32>, tensor<256x10xf32>) -> tensor<32x10xf32> loc("mlp.fc2")
    %4 = "ttir.add"(%3, %b2) : (tensor<32x10xf32>, tensor<1x10xf32>) -> tensor<32x10xf32> loc("mlp.fc2_bias")
    %5 = "ttir.softmax"(%4) <{dimension = 1 : si32}> : (tensor<32x10xf32>) -> tensor<32x10xf32> loc("mlp.softmax")
    return %5 : tensor<32x10xf32>
  }
}
