// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run --result-file %t.json --artifact-dir %t.artifacts %t.ttnn | FileCheck %s --check-prefix=EXEC

// A ResNet basic block over NHWC activations: conv-bn-relu-conv-bn, residual add, relu, 2x2 max pool.
// CHECK-LABEL: func.func @resnet_block
// CHECK: "ttnn.conv2d"
// CHECK-SAME: in_channels = 32 : i32, input_height = 16 : i32, input_width = 16 : i32, kernel_size = array<i32: 3, 3>
// CHECK: "ttnn.batch_norm_inference"
// CHECK: "ttnn.relu"
// CHECK: "ttnn.conv2d"
// CHECK: "ttnn.batch_norm_inference"
// CHECK: "ttnn.add"
// CHECK: "ttnn.relu"
// CHECK: "ttnn.max_pool2d"
// CHECK-SAME: -> tensor<1x1x64x32xbf16
// CHECK: "ttnn.reshape"
// CHECK-SAME: -> tensor<1x8x8x32xf32
// EXEC: PASS
module {
  func.func @resnet_block(%x: tensor<1x16x16x32xf32>, %w1: tensor<32x32x3x3xf32>, %s1: tensor<32xf32>, %o1: tensor<32xf32>, %m1: tensor<32xf32>, %v1: tensor<32xf32>, %w2: tensor<32x32x3x3xf32>, %s2: tensor<32xf32>, %o2: tensor<32xf32>, %m2: tensor<32xf32>, %v2: tensor<32xf32>) -> tensor<1x8x8x32xf32> {
    %0 = "ttir.conv2d"(%x, %w1) <{dilation = 1 : i32, groups = 1 : i32, padding = 1 : i32, stride = 1 : i32}> : (tensor<1x16x16x32xf32>, tensor<32x32x3x3xf32>) -> tensor<1x16x16x32xf32> loc("block.conv1")
    %1 = "ttir.batch_norm_inference"(%0, %s1, %o1, %m1, %v1) <{dimension = 3 : i32, epsilon = 9.99999974E-6 : f32}> : (tensor<1x16x16x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x16x16x32xf32> loc("block.bn1")
    %2 = "ttir.relu"(%1) : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32> loc("block.relu1")
    %3 = "ttir.conv2d"(%2, %w2) <{dilation = 1 : i32, groups = 1 : i32, padding = 1 : i32, stride = 1 : i32}> : (tensor<1x16x16x32xf32>, tensor<32x32x3x3xf32>) -> tensor<1x16x16x32xf32> loc("block.conv2")
    %4 = "ttir.batch_norm_inference"(%3, %s2, %o2, %m2, %v2) <{dimension = 3 : i32, epsilon = 9.99999974E-6 : f32}> : (tensor<1x16x16x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x16x16x32xf32> loc("block.bn2")
    %5 = "ttir.add"(%4, %x) : (tensor<1x16x16x32xf32>, tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32> loc("block.residual")
    %6 = "ttir.relu"(%5) : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32> loc("block.relu2")
    %7 = "ttir.max_pool2d"(%6) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = array<i32: 2, 2>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x16x16x32xf32>) -> tensor<1x8x8x32xf32> loc("block.pool")
    return %7 : tensor<1x8x8x32xf32>
  }
}
