// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: not ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// RUN: ttmlir-opt --split-input-file --verify-diagnostics %S/Inputs/tt_lang_op_invalid.mlir

// A tt-lang kernel passes through to TTNN with its metadata; its destinations are its results.
// CHECK-LABEL: func.func @two_outputs
// CHECK: %{{.*}}:2 = "ttnn.tt_lang_op"
// CHECK-SAME: arg_roles = "in,out,out", kernel_id = "pkg.split::v1", version_tag = "3"
// CHECK-NOT: kernel_artifact
// The binary has no place for an opaque kernel: translation names the op.
// TRANSLATE: error: 'ttnn.tt_lang_op' cannot be serialized to a TTNN flatbuffer; its kernel is opaque
module {
  func.func @two_outputs(%x: tensor<32x64xbf16>, %a: tensor<32x32xbf16>, %b: tensor<32x32xbf16>) -> (tensor<32x32xbf16>, tensor<32x32xbf16>) {
    %0:2 = "ttir.tt_lang_op"(%x, %a, %b) <{kernel_id = "pkg.split::v1", version_tag = "3", arg_roles = "in,out,out"}> : (tensor<32x64xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>) -> (tensor<32x32xbf16>, tensor<32x32xbf16>)
    return %0#0, %0#1 : tensor<32x32xbf16>, tensor<32x32xbf16>
  }
}
