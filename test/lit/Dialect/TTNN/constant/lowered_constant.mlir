// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" %s | FileCheck %s
// A constant that is not one value throughout keeps its data; what it is on the device (tiles of bf16 in DRAM)
// is its result's layout, not attributes of its own.
// CHECK-LABEL: func.func @forward
// CHECK: %[[DEV:.*]] = "ttnn.get_device"
// CHECK: "ttnn.constant"(%[[DEV]]) <{value = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xbf16>}>
// CHECK-SAME: -> tensor<2x2xbf16, #ttnn_layout{{[0-9]*}}>
module {
  func.func @forward(%arg0: tensor<2x2xbf16>) -> tensor<2x2xbf16> {
    %0 = "ttir.constant"() <{value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xbf16>}> : () -> tensor<2x2xbf16>
    %1 = "ttir.add"(%arg0, %0) : (tensor<2x2xbf16>, tensor<2x2xbf16>) -> tensor<2x2xbf16>
    return %1 : tensor<2x2xbf16>
  }
}
