// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// A buffer holds its range of L1 only while a command still uses it: each is freed after the last program reading
// it, and a later tensor takes its address. Each 2048x2048 f32 tensor takes 256 KiB of every core of the 8x8 grid;
// the six tensors of @chain together need more than a core's L1, but no more than three are live at once.

// CHECK-LABEL: func.func @chain
// The host data is written row-major and tilized on the device, each row-major buffer freed once tilized.
// CHECK: %[[A:.*]] = "ttmetal.create_buffer"() <{address = [[BASE:[0-9]+]] : i64}>
// CHECK-NEXT: %[[A_ROWS:.*]] = "ttmetal.create_buffer"() <{address = [[SECOND:[0-9]+]] : i64}>
// CHECK-NEXT: "ttmetal.enqueue_write_buffer"(%arg0, %[[A_ROWS]])
// CHECK-NEXT: "ttmetal.enqueue_program"(%[[A_ROWS]], %[[A]],
// CHECK-NEXT: "ttmetal.deallocate_buffer"(%[[A_ROWS]])
// CHECK-NEXT: %[[B:.*]] = "ttmetal.create_buffer"() <{address = [[SECOND]] : i64}>
// CHECK-NEXT: %[[B_ROWS:.*]] = "ttmetal.create_buffer"() <{address = [[THIRD:[0-9]+]] : i64}>
// CHECK-NEXT: "ttmetal.enqueue_write_buffer"(%arg1, %[[B_ROWS]])
// CHECK-NEXT: "ttmetal.enqueue_program"(%[[B_ROWS]], %[[B]],
// CHECK-NEXT: "ttmetal.deallocate_buffer"(%[[B_ROWS]])
// CHECK-NEXT: %[[SUM:.*]] = "ttmetal.create_buffer"() <{address = [[THIRD]] : i64}>
// CHECK-NEXT: "ttmetal.enqueue_program"(%[[A]], %[[B]], %[[SUM]],
// CHECK-NEXT: "ttmetal.deallocate_buffer"(%[[A]])
// CHECK-NEXT: "ttmetal.deallocate_buffer"(%[[B]])
// CHECK-NEXT: %[[E:.*]] = "ttmetal.create_buffer"() <{address = [[BASE]] : i64}>
// CHECK-NEXT: "ttmetal.enqueue_program"(%[[SUM]], %[[E]],
// CHECK-NEXT: "ttmetal.deallocate_buffer"(%[[SUM]])
// CHECK-NEXT: %[[N:.*]] = "ttmetal.create_buffer"() <{address = [[SECOND]] : i64}>
// CHECK: "ttmetal.enqueue_read_buffer"(%[[LAST:[^,]*]],
// CHECK-NEXT: "ttmetal.deallocate_buffer"(%[[LAST]])
// CHECK-NEXT: "ttmetal.finish"
// TTRT: program 0 ('chain') loop 0: launch 0: {{.*}} launch 7: {{[0-9,]+}} cycles on 64 core(s)
// TTRT-NOT: launch 8
func.func @chain(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %0 = "ttir.add"(%a, %b) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %1 = "ttir.exp"(%0) : (tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %2 = "ttir.neg"(%1) : (tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %3 = "ttir.abs"(%2) : (tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %4 = "ttir.relu"(%3) : (tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %4 : tensor<2048x2048xf32>
}
