// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="experimental-kv-cache-dtype=bfp_bf4" %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s --check-prefix=KEEP
// RUN: not ttmlir-opt --ttnn-kv-cache-dtype-conversion="target-dtype=f32" %s 2>&1 | FileCheck %s --check-prefix=BAD

// The argument update_cache writes into is inferred to be a KV cache; with experimental-kv-cache-dtype it is held
// as a block float, the written row is cast to it, and the returned cache keeps that type. Other arguments stay.
// CHECK-LABEL: func.func @decode_step
// CHECK-SAME: %arg0: tensor<1x8x64x128x!ttcore.tile<32x32, bfp_bf4>, #{{.*}}> {ttcore.kv_cache}
// CHECK-SAME: %arg1: tensor<1x8x1x128xbf16
// CHECK-SAME: -> tensor<1x8x64x128x!ttcore.tile<32x32, bfp_bf4>
// KEEP: %arg0: tensor<1x8x64x128xbf16, #{{.*}}> {ttcore.kv_cache}
// BAD: error: target-dtype 'f32' is not one of none, bfp_bf8, bfp_bf4
func.func @decode_step(%cache: tensor<1x8x64x128xbf16>, %row: tensor<1x8x1x128xbf16>, %pos: tensor<1xi32>) -> tensor<1x8x64x128xbf16> {
  "ttir.fill_cache"(%cache, %row) <{batch_offset = 0 : i32}> : (tensor<1x8x64x128xbf16>, tensor<1x8x1x128xbf16>) -> ()
  return %cache : tensor<1x8x64x128xbf16>
}
