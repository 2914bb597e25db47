// RUN: ttmlir-opt --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s
// Local scope prints every location inline.

// CHECK: "ttir.exp"(%arg0) : (tensor<8x8xbf16>) -> tensor<8x8xbf16> loc(callsite("exp"("f.py":3:1) at "main.py":10:2))
// CHECK-NOT: #loc
module {
  func.func @f(%arg0: tensor<8x8xbf16>) -> tensor<8x8xbf16> {
    %0 = "ttir.exp"(%arg0) : (tensor<8x8xbf16>) -> tensor<8x8xbf16> loc(callsite("exp"("f.py":3:1) at "main.py":10:2))
    return %0 : tensor<8x8xbf16>
  }
}
