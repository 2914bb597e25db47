// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.group_norm' op requires attribute 'num_groups'}}
module {
  func.func @group_norm(%arg0: tensor<1x1x64x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>) -> tensor<1x1x64x32xf32> {
    %0 = "ttir.group_norm"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 0, 1, 1>}> : (tensor<1x1x64x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x1x64x32xf32>
    return %0 : tensor<1x1x64x32xf32>
  }
}
// -----

// expected-error @+3 {{'ttir.group_norm' op attribute 'num_groups' failed to satisfy constraint}}
module {
  func.func @group_norm(%arg0: tensor<1x1x64x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>) -> tensor<1x1x64x32xf32> {
    %0 = "ttir.group_norm"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, num_groups = "oops", operandSegmentSizes = array<i32: 1, 0, 1, 1>}> : (tensor<1x1x64x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x1x64x32xf32>
    return %0 : tensor<1x1x64x32xf32>
  }
}
