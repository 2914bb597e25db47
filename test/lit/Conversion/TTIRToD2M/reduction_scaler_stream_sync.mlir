// RUN: ttmlir-opt --mlir-disable-threading --mlir-print-ir-after=d2m-split-unified-thread --ttcore-register-device --d2m-fe-pipeline="default-input-memspace=dram default-output-memspace=dram" --d2m-be-pipeline %s -o /dev/null 2>&1 | FileCheck %s
// A mean's scaler tile is a CB the data movement thread fills once per block: after the unified thread is split,
// the compute thread waits for it before its reads (collapsed to the tiles the reduction loads) and pops it after
// the reduction, as it does the streamed input; otherwise the data movement thread would push again into a full CB.

// CHECK: IR Dump After D2MSplitUnifiedThread
// CHECK: d2m.generic {{.*}}threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]
// CHECK: "d2m.tile_tilize_block"
// CHECK: d2m.generic {{.*}}threads = [#d2m.thread<datamovement>, #d2m.thread<compute>]
// CHECK: }, {
// CHECK: %[[SCALER_CB:.*]] = d2m.get_cb(4)
// CHECK: %[[IN_CB:.*]] = d2m.get_cb(3)
// CHECK: %[[SCALER_BLOCK:.*]] = d2m.wait %[[SCALER_CB]]
// CHECK-NEXT: %[[SCALER_TILES:.*]] = memref.collapse_shape %[[SCALER_BLOCK]]
// CHECK: %[[SCALER:.*]] = memref.load %[[SCALER_TILES]]
// CHECK: "d2m.tile_reduce_mean"({{.*}}, %[[SCALER]], {{.*}})
// CHECK: d2m.pop %[[SCALER_CB]]
// CHECK-NEXT: d2m.pop %[[IN_CB]]
func.func @main(%arg0: tensor<2x128x160xf32>) -> tensor<2x128x1xf32> {
  %0 = "ttir.mean"(%arg0) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<2x128x160xf32>) -> tensor<2x128x1xf32>
  return %0 : tensor<2x128x1xf32>
}
