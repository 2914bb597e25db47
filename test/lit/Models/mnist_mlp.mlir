// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run --check-memory-leak --result-file %t.json --artifact-dir %t.artifacts %t.ttnn | FileCheck %s --check-prefix=EXEC

// An MNIST MLP (784 -> 256 -> 10): each matmul and its bias add fuse into one ttnn.linear.
// CHECK-LABEL: func.func @mlp
// CHECK: "ttnn.linear"
// CHECK-SAME: (tensor<32x784xf32, #ttnn_layout{{[0-9]*}}>, tensor<784x256xf32, #ttnn_layout{{[0-9]*}}>, tensor<1x256xf32, #ttnn_layout{{[0-9]*}}>) -> tensor<32x256xf32
// CHECK: "ttnn.relu"
// CHECK: "ttnn.linear"
// CHECK-SAME: -> tensor<32x10xf32
// CHECK: "ttnn.softmax"
// CHECK-SAME: dimension = 1 : si32
// CHECK-NOT: "ttnn.from_device"
// EXEC: PASS
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
