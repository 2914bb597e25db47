// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="enable-fusing-conv2d-with-multiply-pattern=true" %s | FileCheck %s --check-prefix=FUSED
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1" %s | FileCheck %s --check-prefix=FUSED
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s --check-prefix=KEPT
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="enable-fusing-conv2d-with-multiply-pattern=maybe" %s 2>&1 | FileCheck %s --check-prefix=BAD
// A batch norm with constant statistics after a channels-first conv folds into the conv's weights and bias when the
// option (on from optimization level 1) asks for it.

// FUSED: "ttnn.conv2d"
// FUSED-NOT: "ttnn.batch_norm_inference"
// KEPT: "ttnn.batch_norm_inference"
// BAD: error: invalid boolean 'maybe' for enable-fusing-conv2d-with-multiply-pattern
func.func @conv_bn(%x: tensor<1x3x16x16xbf16>, %w: tensor<8x3x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                   %s: tensor<8xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                   %o: tensor<8xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                   %m: tensor<8xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>},
                   %v: tensor<8xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<1x8x14x14xbf16> {
  %0 = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32, batch_dim = 0 : i64, channel_dim = 1 : i64, height_dim = 2 : i64, width_dim = 3 : i64}> : (tensor<1x3x16x16xbf16>, tensor<8x3x3x3xbf16>) -> tensor<1x8x14x14xbf16>
  %1 = "ttir.batch_norm_inference"(%0, %s, %o, %m, %v) <{dimension = 1 : i32, epsilon = 9.99999974E-6 : f32}> : (tensor<1x8x14x14xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<1x8x14x14xbf16>
  return %1 : tensor<1x8x14x14xbf16>
}
