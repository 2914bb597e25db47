// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=2" %s -o %t2.mlir --mlir-print-local-scope
// RUN: FileCheck %s --check-prefix=LEVEL2 --input-file=%t2.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn %t2.mlir
// RUN: ttmlir-opt -split-input-file --ttir-to-ttnn-backend-pipeline="optimization-level=1" %s -mlir-print-local-scope | FileCheck %s --check-prefix=LEVEL1
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=2 memory-layout-analysis-enabled=false" %s --mlir-print-local-scope | FileCheck %s --check-prefix=LEVEL1
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=2 max-legal-layouts=0" %s --mlir-print-local-scope | FileCheck %s --check-prefix=LEVEL1
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="enable-optimizer=true memory-layout-analysis-enabled=true" %s --mlir-print-local-scope | FileCheck %s --check-prefix=LEVEL2
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=3" %s 2>&1 | FileCheck %s --check-prefix=BADLEVEL
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=2 tensor-l1-usage-cap=1.5" %s 2>&1 | FileCheck %s --check-prefix=BADCAP

// A matmul whose result only an eltwise op reads is sharded over the worker grid, gets the program config its
// sharding implies, and the multiply reads the shards; the returned product stays in DRAM.
// LEVEL2: %[[MM:.*]] = "ttnn.matmul"
// LEVEL2-SAME: matmul_program_config = #ttnn.matmul_multi_core_reuse_multi_cast
// LEVEL2-SAME: per_core_m
// LEVEL2-SAME: -> tensor<512x2048xbf16, #ttnn.ttnn_layout<{{.*}}, <8x8>, memref<{{.*}}buffer_type<l1>>, <{{(width|height|block)}}_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,7)>]>>>
// LEVEL2: "ttnn.multiply"(%[[MM]],
// LEVEL2-SAME: -> tensor<512x2048xbf16, #ttnn.ttnn_layout<{{.*}}buffer_type<dram>>, <interleaved>>>

// LEVEL1-NOT: sharded
// LEVEL1-NOT: buffer_type<l1>
// LEVEL1: "ttnn.matmul"{{.*}}buffer_type<dram>>, <interleaved>>>
// LEVEL1-NOT: buffer_type<l1>

// BADLEVEL: error: optimization-level must be 0, 1 or 2, got 3
// BADCAP: error: tensor-l1-usage-cap must be in (0, 1], got 1.5

module {
  func.func @forward(%arg0: tensor<512x1024xbf16>, %arg1: tensor<1024x2048xbf16>, %arg2: tensor<512x2048xbf16>) -> tensor<512x2048xbf16> {
    %0 = "ttir.matmul"(%arg0, %arg1) : (tensor<512x1024xbf16>, tensor<1024x2048xbf16>) -> tensor<512x2048xbf16>
    %1 = "ttir.multiply"(%0, %arg2) : (tensor<512x2048xbf16>, tensor<512x2048xbf16>) -> tensor<512x2048xbf16>
    return %1 : tensor<512x2048xbf16>
  }
}
