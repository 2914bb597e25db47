// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC

// A convolution reads its weight and bias from the host as given (it prepares them itself): a 1x1 kernel's
// weight tilized whole in DRAM would take 32 times its size (resnet's 2048x1024x1x1 weights alone would
// fill the n150's DRAM). An identity permute on the way (as XLA exports write) is folded first.
// CHECK: #[[HOST:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}memref<2097152x1xbf16, #system_memory>>
// CHECK-LABEL: func.func @pointwise_conv
// CHECK-NOT: "ttnn.permute"
// CHECK: "ttnn.conv2d"(%{{[0-9]+}}, %arg1, %arg2, %{{[0-9]+}})
// CHECK-SAME: tensor<2048x1024x1x1xbf16, #[[HOST]]>
// EXEC: PASS
module {
  func.func @pointwise_conv(%x: tensor<1x7x7x1024xbf16>, %w: tensor<2048x1024x1x1xbf16>, %b: tensor<1x1x1x2048xbf16>) -> tensor<1x7x7x2048xbf16> {
    %wp = "ttir.permute"(%w) <{permutation = array<i64: 0, 1, 2, 3>}> : (tensor<2048x1024x1x1xbf16>) -> tensor<2048x1024x1x1xbf16>
    %0 = "ttir.conv2d"(%x, %wp, %b) <{dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32}> : (tensor<1x7x7x1024xbf16>, tensor<2048x1024x1x1xbf16>, tensor<1x1x1x2048xbf16>) -> tensor<1x7x7x2048xbf16>
    return %0 : tensor<1x7x7x2048xbf16>
  }
}
