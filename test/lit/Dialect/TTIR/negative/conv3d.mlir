// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.conv3d' op weight must be a 5D tensor}}
module {
  func.func @weight_rank(%x: tensor<1x8x8x8x4xf32>, %w: tensor<16x4x3x3xf32>) -> tensor<1x6x6x6x16xf32> {
    %0 = "ttir.conv3d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, groups = 1 : i32}> : (tensor<1x8x8x8x4xf32>, tensor<16x4x3x3xf32>) -> tensor<1x6x6x6x16xf32>
    return %0 : tensor<1x6x6x6x16xf32>
  }
}

// -----
// expected-error @+3 {{'ttir.conv3d' op Expected integer or array of size 3, but got array of size 2 for stride}}
module {
  func.func @stride_pair(%x: tensor<1x8x8x8x4xf32>, %w: tensor<16x4x3x3x3xf32>) -> tensor<1x6x6x6x16xf32> {
    %0 = "ttir.conv3d"(%x, %w) <{stride = array<i32: 1, 1>, padding = 0 : i32, groups = 1 : i32}> : (tensor<1x8x8x8x4xf32>, tensor<16x4x3x3x3xf32>) -> tensor<1x6x6x6x16xf32>
    return %0 : tensor<1x6x6x6x16xf32>
  }
}

// -----
// expected-error @+3 {{'ttir.conv3d' op padding_mode must be either 'zeros' or 'replicate'}}
module {
  func.func @mode(%x: tensor<1x8x8x8x4xf32>, %w: tensor<16x4x3x3x3xf32>) -> tensor<1x6x6x6x16xf32> {
    %0 = "ttir.conv3d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, groups = 1 : i32, padding_mode = "reflect"}> : (tensor<1x8x8x8x4xf32>, tensor<16x4x3x3x3xf32>) -> tensor<1x6x6x6x16xf32>
    return %0 : tensor<1x6x6x6x16xf32>
  }
}

// -----
// expected-error @+3 {{'ttir.conv3d' op The output tensor spatial dimensions (6, 6, 7) do not match the expected dimensions (6, 6, 6).}}
module {
  func.func @spatial(%x: tensor<1x8x8x8x4xf32>, %w: tensor<16x4x3x3x3xf32>) -> tensor<1x6x6x7x16xf32> {
    %0 = "ttir.conv3d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, groups = 1 : i32}> : (tensor<1x8x8x8x4xf32>, tensor<16x4x3x3x3xf32>) -> tensor<1x6x6x7x16xf32>
    return %0 : tensor<1x6x6x7x16xf32>
  }
}

// -----
// expected-error @+3 {{'ttir.conv3d' op The kernel size (3, 3, 3) cannot be greater than the padded input size per channel (8, 2, 8).}}
module {
  func.func @kernel_too_big(%x: tensor<1x8x2x8x4xf32>, %w: tensor<16x4x3x3x3xf32>) -> tensor<1x6x1x6x16xf32> {
    %0 = "ttir.conv3d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, groups = 1 : i32}> : (tensor<1x8x2x8x4xf32>, tensor<16x4x3x3x3xf32>) -> tensor<1x6x1x6x16xf32>
    return %0 : tensor<1x6x1x6x16xf32>
  }
}
