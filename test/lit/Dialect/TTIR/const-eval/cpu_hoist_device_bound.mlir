// RUN: ttmlir-opt --ttcore-wrap-device-module --const-eval-hoist-transform --cpu-hoist-const-eval %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="enable-const-eval=true enable-cpu-hoisted-const-eval=true" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC
// A const-eval function with a convolution stays on the device: TTNN's conv2d takes the device handle, which a host
// function does not have.
// CHECK-LABEL: func.func private @forward_const_eval_0(
// CHECK: "ttir.conv2d"
// CHECK-NOT: cpu_hoisted_const_eval
// CHECK-NOT: ttcore.cpu_module
// EXEC: PASS
func.func @forward(%x: tensor<1x1x8x16xbf16> {ttcore.argument_type = #ttcore.argument_type<input>},
                   %image: tensor<1x8x8x16xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                   %w: tensor<16x16x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<1x1x8x16xbf16> {
  %0 = "ttir.conv2d"(%image, %w) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x8x8x16xbf16>, tensor<16x16x3x3xbf16>) -> tensor<1x8x8x16xbf16>
  %1 = "ttir.reshape"(%0) <{shape = [1 : i32, 1 : i32, 64 : i32, 16 : i32]}> : (tensor<1x8x8x16xbf16>) -> tensor<1x1x64x16xbf16>
  %2 = "ttir.slice_static"(%1) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 1 : i32, 8 : i32, 16 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x1x64x16xbf16>) -> tensor<1x1x8x16xbf16>
  %3 = "ttir.add"(%x, %2) : (tensor<1x1x8x16xbf16>, tensor<1x1x8x16xbf16>) -> tensor<1x1x8x16xbf16>
  return %3 : tensor<1x1x8x16xbf16>
}
