// RUN: ttmlir-opt --verify-diagnostics %s

func.func @max_pool2d(%arg0: tensor<1x1x1024x64xf32>, %arg1: tensor<1x1x1024x64xf32>) -> tensor<1x1x256x64xf32> {
  // expected-error @+1 {{'ttnn.max_pool2d' op requires a single operand}}
  %0 = "ttnn.max_pool2d"(%arg0, %arg1) <{batch_size = 1 : si32, ceil_mode = false, channels = 64 : si32, dilation = array<i32: 1, 1>, input_height = 32 : si32, input_width = 32 : si32, kernel_size = array<i32: 2, 2>, padding = array<i32: 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x1x1024x64xf32>, tensor<1x1x1024x64xf32>) -> tensor<1x1x256x64xf32>
  return %0 : tensor<1x1x256x64xf32>
}
