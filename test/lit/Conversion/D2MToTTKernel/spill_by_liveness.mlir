// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="override-device-shape=1,1" %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="override-device-shape=1,1" -o %t.mlir %s
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// On one core each 384x384 f32 tensor takes 576 KiB of the 1.43 MiB of free L1: two fit beside the CBs, three do
// not. exp(%a) is held from the first program to the last while neg and abs each need two tensors of their own, so
// it is the one spilled (its next use is the furthest): exp writes it interleaved in DRAM through a CB of 2 pages,
// and the add streams it back the same way. Nothing else leaves L1, and no program copies it back into L1. The host
// data is written row-major and tilized on the core (a's before exp, b's before neg: the row-major buffer is free
// once tilized).

// CHECK-LABEL: func.func @held
// CHECK: %[[A:.*]] = "ttmetal.create_buffer"() {{.*}} -> memref<1x1x12x12x!ttcore.tile<32x32, f32>, #ttcore.shard<49152x4096, 1>, #l1>
// CHECK: %[[E:.*]] = "ttmetal.create_buffer"() {{.*}} -> memref<1x1x12x12x!ttcore.tile<32x32, f32>, #ttcore.interleaved<49152x4096>, #dram>
// CHECK: %[[OUTCB:.*]] = "ttmetal.create_buffer"() {{.*}} -> memref<1x1x1x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
// CHECK: "ttmetal.enqueue_program"(%[[A]], %[[E]], %[[A]], %[[OUTCB]])
// CHECK-NOT: "ttmetal.create_buffer"(){{.*}}#dram>
// CHECK: "ttmetal.enqueue_write_buffer"(%arg1, %[[B_ROWS:.*]]) : (memref<384x384xf32>, memref<1x1x384x384xf32
// CHECK-NEXT: "ttmetal.enqueue_program"(%[[B_ROWS]],
// CHECK-NOT: "ttmetal.create_buffer"(){{.*}}#dram>
// CHECK: "ttmetal.enqueue_program"
// CHECK-NOT: "ttmetal.create_buffer"(){{.*}}#dram>
// CHECK: "ttmetal.enqueue_program"
// CHECK-NOT: "ttmetal.create_buffer"(){{.*}}#dram>
// CHECK: %[[SUM:.*]] = "ttmetal.create_buffer"() {{.*}} -> memref<1x1x12x12x!ttcore.tile<32x32, f32>, #ttcore.shard<49152x4096, 1>, #l1>
// CHECK: %[[INCB:.*]] = "ttmetal.create_buffer"() {{.*}} -> memref<1x1x1x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>
// CHECK: "ttmetal.enqueue_program"(%[[ABS:[^,]*]], %[[E]], %[[SUM]], %[[ABS]], %[[INCB]], %[[SUM]])
// CHECK: "ttmetal.deallocate_buffer"(%[[E]])
// Seven programs: a's tilize, exp, b's tilize, neg, abs, add, the result's untilize.
// TTRT: program 0 ('held') loop 0: launch 0: {{.*}} launch 6: {{[0-9,]+}} cycles on 1 core(s)
// TTRT-NOT: launch 7
func.func @held(%a: tensor<384x384xf32>, %b: tensor<384x384xf32>) -> tensor<384x384xf32> {
  %0 = "ttir.exp"(%a) : (tensor<384x384xf32>) -> tensor<384x384xf32>
  %1 = "ttir.neg"(%b) : (tensor<384x384xf32>) -> tensor<384x384xf32>
  %2 = "ttir.abs"(%1) : (tensor<384x384xf32>) -> tensor<384x384xf32>
  %3 = "ttir.add"(%2, %0) : (tensor<384x384xf32>, tensor<384x384xf32>) -> tensor<384x384xf32>
  return %3 : tensor<384x384xf32>
}
