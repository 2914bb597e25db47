// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=TTNN
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC
// A fused QKV projection (or Q, and K | V apart) split into heads; grouped-query K/V heads via num_kv_heads.

// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = "ttir.split_query_key_value_and_split_heads"(%arg0) <{num_heads = 8 : ui32, num_kv_heads = 2 : ui32, transpose_key = true}>
// TTNN-LABEL: func.func @fused
// TTNN: "ttnn.split_query_key_value_and_split_heads"(%arg0)
// TTNN-SAME: -> (tensor<1x8x32x64xbf16, {{.*}}>, tensor<1x2x64x32xbf16, {{.*}}>, tensor<1x2x32x64xbf16, {{.*}}>)
// TTNN-LABEL: func.func @separate_kv
// TTNN: "ttnn.split_query_key_value_and_split_heads"(%arg0, %arg1)
// EXEC: PASS
func.func @fused(%arg0: tensor<1x32x768xbf16>) -> (tensor<1x8x32x64xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x32x64xbf16>) {
  %0, %1, %2 = "ttir.split_query_key_value_and_split_heads"(%arg0) <{num_heads = 8 : ui32, num_kv_heads = 2 : ui32, transpose_key = true}> : (tensor<1x32x768xbf16>) -> (tensor<1x8x32x64xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x32x64xbf16>)
  return %0, %1, %2 : tensor<1x8x32x64xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x32x64xbf16>
}

func.func @separate_kv(%arg0: tensor<2x16x256xbf16>, %arg1: tensor<2x16x512xbf16>) -> (tensor<2x8x16x32xbf16>, tensor<2x8x16x32xbf16>, tensor<2x8x16x32xbf16>) {
  %0, %1, %2 = "ttir.split_query_key_value_and_split_heads"(%arg0, %arg1) <{num_heads = 8 : ui32, transpose_key = false}> : (tensor<2x16x256xbf16>, tensor<2x16x512xbf16>) -> (tensor<2x8x16x32xbf16>, tensor<2x8x16x32xbf16>, tensor<2x8x16x32xbf16>)
  return %0, %1, %2 : tensor<2x8x16x32xbf16>, tensor<2x8x16x32xbf16>, tensor<2x8x16x32xbf16>
}
