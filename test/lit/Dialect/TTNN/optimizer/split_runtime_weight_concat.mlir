// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1" %s --mlir-print-local-scope | FileCheck %s --check-prefix=SPLIT
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=0" %s --mlir-print-local-scope | FileCheck %s --check-prefix=JOINT

// Three decode-shaped products of one activation: TTIR's shared-LHS fusion joins them into one product of the
// concatenated weights. @runtime_weights' weights are call inputs, so the concat would copy them every call: with the
// optimizer on, each slice of the joint product becomes the product with its own weight again.
// SPLIT-LABEL: func.func @runtime_weights
// SPLIT-NOT: "ttnn.concat"
// SPLIT: "ttnn.matmul"(%{{.*}}, %arg1){{.*}}-> tensor<32x1024xbf16
// SPLIT: "ttnn.matmul"(%{{.*}}, %arg2){{.*}}-> tensor<32x512xbf16
// SPLIT: "ttnn.matmul"(%{{.*}}, %arg3){{.*}}-> tensor<32x512xbf16
// SPLIT-NOT: "ttnn.slice_static"
// SPLIT-LABEL: func.func @parameter_weights
// @parameter_weights' weights are parameters: const-eval concatenates them once, and the joint product stays.
// SPLIT: ttcore.load_cached
// SPLIT: "ttnn.matmul"{{.*}}-> tensor<32x2048xbf16
// SPLIT-COUNT-3: "ttnn.slice_static"

// Level 0 runs no optimizer: the joint product and its per-call concat stay as the fusion made them.
// JOINT-LABEL: func.func @runtime_weights
// JOINT: "ttnn.concat"
// JOINT: "ttnn.matmul"{{.*}}-> tensor<32x2048xbf16
// JOINT-COUNT-3: "ttnn.slice_static"

module {
  func.func @runtime_weights(%arg0: tensor<32x1024xbf16>, %arg1: tensor<1024x1024xbf16>, %arg2: tensor<1024x512xbf16>, %arg3: tensor<1024x512xbf16>) -> (tensor<32x1024xbf16>, tensor<32x512xbf16>, tensor<32x512xbf16>) {
    %0 = "ttir.matmul"(%arg0, %arg1) : (tensor<32x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<32x1024xbf16>
    %1 = "ttir.matmul"(%arg0, %arg2) : (tensor<32x1024xbf16>, tensor<1024x512xbf16>) -> tensor<32x512xbf16>
    %2 = "ttir.matmul"(%arg0, %arg3) : (tensor<32x1024xbf16>, tensor<1024x512xbf16>) -> tensor<32x512xbf16>
    return %0, %1, %2 : tensor<32x1024xbf16>, tensor<32x512xbf16>, tensor<32x512xbf16>
  }
  func.func @parameter_weights(%arg0: tensor<32x1024xbf16> {ttcore.argument_type = #ttcore.argument_type<input>}, %arg1: tensor<1024x1024xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %arg2: tensor<1024x512xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %arg3: tensor<1024x512xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> (tensor<32x1024xbf16>, tensor<32x512xbf16>, tensor<32x512xbf16>) {
    %0 = "ttir.matmul"(%arg0, %arg1) : (tensor<32x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<32x1024xbf16>
    %1 = "ttir.matmul"(%arg0, %arg2) : (tensor<32x1024xbf16>, tensor<1024x512xbf16>) -> tensor<32x512xbf16>
    %2 = "ttir.matmul"(%arg0, %arg3) : (tensor<32x1024xbf16>, tensor<1024x512xbf16>) -> tensor<32x512xbf16>
    return %0, %1, %2 : tensor<32x1024xbf16>, tensor<32x512xbf16>, tensor<32x512xbf16>
  }
}
