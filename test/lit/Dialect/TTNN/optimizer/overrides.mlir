// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-output-layout=act=l1:block_sharded:8x8" %s --mlir-print-local-scope | FileCheck %s
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-output-layout=act=l1:block_sharded:3x8" %s 2>&1 | FileCheck %s --check-prefix=UNEVEN
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-output-layout=scale=l1:width_sharded:1x8" %s 2>&1 | FileCheck %s --check-prefix=READER
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-output-layout=act=f32" %s 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-output-layout=nothing=l1" %s 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-conv2d-config=act=deallocate_activation#true" %s 2>&1 | FileCheck %s --check-prefix=CONV

// The named relu writes an 8x8 block-sharded result; nothing else moves out of DRAM at level 1.
// CHECK: "ttnn.matmul"{{.*}}-> tensor<256x1024xbf16, #ttnn.ttnn_layout<{{.*}}buffer_type<dram>>, <interleaved>>>
// CHECK: "ttnn.relu"{{.*}}-> tensor<256x1024xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,7)>]>>>
// CHECK: "ttnn.add"{{.*}}-> tensor<256x1024xbf16, #ttnn.ttnn_layout<{{.*}}buffer_type<dram>>, <interleaved>>>
// UNEVEN: error: override-output-layout for 'act' (l1:block_sharded:3x8) is illegal: a 8x32-tile tensor does not split evenly into block_sharded shards over 3x8 cores
// READER: error: override-output-layout for 'scale' (l1:width_sharded:1x8) is illegal: an op reading the result cannot read it sharded
// DTYPE: error: override-output-layout for 'act': the result is bf16; changing its data type to f32 would change what the op computes
// NAME: error: override-output-layout names no TTNN op: 'nothing'
// CONV: error: override-conv2d-config names no conv2d: 'act'
module {
  func.func @forward(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>, %c: tensor<256x1024xbf16>) -> tensor<256x1024xbf16> {
    %0 = "ttir.matmul"(%a, %b) : (tensor<256x512xbf16>, tensor<512x1024xbf16>) -> tensor<256x1024xbf16> loc("mm")
    %1 = "ttir.relu"(%0) : (tensor<256x1024xbf16>) -> tensor<256x1024xbf16> loc("act")
    %2 = "ttir.add"(%1, %c) : (tensor<256x1024xbf16>, tensor<256x1024xbf16>) -> tensor<256x1024xbf16> loc("sum")
    %3 = "ttir.multiply"(%2, %c) : (tensor<256x1024xbf16>, tensor<256x1024xbf16>) -> tensor<256x1024xbf16> loc("scale")
    return %3 : tensor<256x1024xbf16>
  }
}
