// RUN: ttmlir-opt --canonicalize %s | FileCheck %s --check-prefix=CANON
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC

// Every user of the cache at one position: a paged_update_cache without a page table, the input's heads and
// users swapped and the position repeated per user.
// CANON-LABEL: func.func @decode_step
// CANON: %[[T:.*]] = "ttir.permute"(%arg1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x8x4x64xbf16>) -> tensor<1x4x8x64xbf16>
// CANON: %[[I:.*]] = "ttir.repeat"(%arg2) <{repeat_dimensions = array<i64: 4>}> : (tensor<1xi32>) -> tensor<4xi32>
// CANON: "ttir.paged_update_cache"(%arg0, %[[T]], %[[I]]) <{share_cache = false}>
// A batch offset keeps update_cache.
// CANON-LABEL: func.func @offset_step
// CANON: "ttir.update_cache"
// CHECK-LABEL: func.func @decode_step
// CHECK: "ttnn.paged_update_cache"
// CHECK-LABEL: func.func @paged_step
// CHECK: "ttnn.paged_update_cache"(%arg0, %arg1, %arg2, %arg3) :
// EXEC: PASS
module {
  func.func @decode_step(%cache: tensor<4x8x32x64xbf16>, %token: tensor<1x8x4x64xbf16>, %pos: tensor<1xi32>) -> tensor<4x8x32x64xbf16> {
    "ttir.update_cache"(%cache, %token, %pos) <{batch_offset = 0 : i32}> : (tensor<4x8x32x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1xi32>) -> ()
    return %cache : tensor<4x8x32x64xbf16>
  }
  func.func @offset_step(%cache: tensor<4x8x32x64xbf16>, %token: tensor<1x8x2x64xbf16>, %pos: tensor<1xi32>) -> tensor<4x8x32x64xbf16> {
    "ttir.update_cache"(%cache, %token, %pos) <{batch_offset = 2 : i32}> : (tensor<4x8x32x64xbf16>, tensor<1x8x2x64xbf16>, tensor<1xi32>) -> ()
    return %cache : tensor<4x8x32x64xbf16>
  }
  func.func @paged_step(%cache: tensor<8x8x32x64xbf16>, %token: tensor<1x4x8x64xbf16>, %pos: tensor<4xi32>, %pages: tensor<4x2xi32>) -> tensor<8x8x32x64xbf16> {
    "ttir.paged_update_cache"(%cache, %token, %pos, %pages) : (tensor<8x8x32x64xbf16>, tensor<1x4x8x64xbf16>, tensor<4xi32>, tensor<4x2xi32>) -> ()
    return %cache : tensor<8x8x32x64xbf16>
  }
}
