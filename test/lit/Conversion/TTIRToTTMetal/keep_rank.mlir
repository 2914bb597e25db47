// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="collapse-tensors-2d=false" -o %t.mlir %s
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=RUNS
// collapse-tensors-2d=false: a 2x64x96 tensor keeps its rank on a 2x2x3 grid (a matrix per grid row of cores)
// whose maps fold its leading dims into rows; host data is written row-major and tilized on the device, the
// result untilized there before it is read.

// CHECK-DAG: #[[FWD:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0 * 2 + d1, d2, d3, d4, d5)>
// CHECK-DAG: #[[INV:map[0-9]*]] = affine_map<(d0, d1) -> (0, d0 floordiv 2, d0 mod 2, d1)>
// CHECK-LABEL: func.func @sub
// CHECK: %[[T:.*]] = "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64, virtualGridForwardMapping = #[[FWD]], virtualGridInverseMapping = #[[INV]]}> : () -> memref<2x2x3x1x1x1x!ttcore.tile<32x32, bf16>, #ttcore.shard<2048x2048x2048, 1>, #l1>
// CHECK: %[[R:.*]] = "ttmetal.create_buffer"() <{{.*}}> : () -> memref<2x2x3x1x32x32xbf16, #ttcore.shard<2048x64x2, 1>, #l1>
// CHECK: "ttmetal.enqueue_write_buffer"(%arg0, %[[R]]) : (memref<2x64x96xbf16>, memref<2x2x3x1x32x32xbf16, #ttcore.shard<2048x64x2, 1>, #l1>)
// CHECK: "ttmetal.enqueue_program"(%[[R]], %[[T]], %[[R]], %[[T]])
// CHECK: "ttmetal.enqueue_read_buffer"(%{{.*}}, %{{.*}}) : (memref<2x2x3x1x32x32xbf16, #ttcore.shard<2048x64x2, 1>, #l1>, memref<2x64x96xbf16>)
// CHECK: func.func private @compute_kernel1
// CHECK: emitc.call_opaque "tilize_init"
// CHECK: emitc.call_opaque "tilize_block"
// CHECK: emitc.call_opaque "untilize_block"
// RUNS: launch 3: {{[0-9]+}} cycles on 12 core(s)
func.func @sub(%a: tensor<2x64x96xbf16>, %b: tensor<2x64x96xbf16>) -> tensor<2x64x96xbf16> {
  %0 = "ttir.subtract"(%a, %b) : (tensor<2x64x96xbf16>, tensor<2x64x96xbf16>) -> tensor<2x64x96xbf16>
  return %0 : tensor<2x64x96xbf16>
}
