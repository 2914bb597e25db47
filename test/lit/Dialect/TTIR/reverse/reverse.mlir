// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s | FileCheck %s --check-prefix=TTNN

// CHECK-LABEL: func.func @reverse
// CHECK: %{{[0-9]+}} = "ttir.reverse"(%arg0) <{dimensions = array<i64: 0, 1>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
// TTNN has no reverse: the rows are gathered in reverse order by an embedding lookup (upstream's decomposition).
// TTNN: "ttnn.embedding"
// TTNN-SAME: #ttnn_layout
// TTNN-NOT: "ttnn.reverse"
// Integer rows, which the embedding kernel would read as bf16, are gathered exactly.
// TTNN-LABEL: func.func @reverse_integer
// TTNN-NOT: "ttnn.embedding"
// TTNN: "ttnn.gather"
// TTNN-SAME: -> tensor<32x64xsi32
module {
  func.func @reverse(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.reverse"(%arg0) <{dimensions = array<i64: 0, 1>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
  func.func @reverse_integer(%arg0: tensor<32x64xi32>) -> tensor<32x64xi32> {
    %0 = "ttir.reverse"(%arg0) <{dimensions = array<i64: 0>}> : (tensor<32x64xi32>) -> tensor<32x64xi32>
    return %0 : tensor<32x64xi32>
  }
}
