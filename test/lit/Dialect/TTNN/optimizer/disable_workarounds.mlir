// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=2 disable-workarounds=true" %s --mlir-print-local-scope | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="disable-workarounds=true" %s --mlir-print-local-scope | FileCheck %s --check-prefix=NONE
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s --mlir-print-local-scope | FileCheck %s --check-prefix=DEFAULT

// Without the workaround pass, the validation after the optimizer still gives argmax the row-major input its kernel
// reads, converted into DRAM (the L1 budget was settled before it ran); with no optimizer nothing converts it.
// CHECK: "ttnn.add"
// CHECK: %[[ROWS:.*]] = "ttnn.to_layout"{{.*}}-> tensor<64x96xbf16, #ttnn.ttnn_layout<{{.*}}memref<64x96xbf16, #ttnn.buffer_type<dram>>
// CHECK: "ttnn.argmax"(%[[ROWS]])
// NONE: %[[SUM:.*]] = "ttnn.add"
// NONE-NEXT: "ttnn.argmax"(%[[SUM]]){{.*}}tensor<64x96xbf16, #ttnn.ttnn_layout<{{.*}}!ttcore.tile<32x32, bf16>
// DEFAULT: "ttnn.to_layout"
// DEFAULT: "ttnn.argmax"
module {
  func.func @forward(%a: tensor<64x96xbf16>, %b: tensor<64x96xbf16>) -> tensor<64xi32> {
    %0 = "ttir.add"(%a, %b) : (tensor<64x96xbf16>, tensor<64x96xbf16>) -> tensor<64x96xbf16>
    %1 = "ttir.argmax"(%0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<64x96xbf16>) -> tensor<64xi32>
    return %1 : tensor<64xi32>
  }
}
