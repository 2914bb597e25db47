// RUN: ttmlir-opt --lower-affine %s | FileCheck %s
// Affine loops, accesses and applies become scf and arith: bounds and indices evaluated from their maps and
// operands (plain dims and symbols are the operands themselves), loop attributes kept.

// CHECK-LABEL: func.func @loops
func.func @loops(%n: index, %m: memref<8x8xf32>) {
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK: %[[C1:.*]] = arith.constant 1 : index
  // CHECK: scf.for %[[I:.*]] = %[[C0]] to %{{.*}} step %[[C1]] {
  affine.for %i = 0 to %n {
    // CHECK: %[[LO:.*]] = arith.maxsi
    // CHECK: scf.for %[[J:.*]] = %[[LO]] to %{{.*}} step %{{.*}} {
    affine.for %j = max affine_map<(d0) -> (d0, 2)>(%i) to 8 step 2 {
      // CHECK: %[[V:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<8x8xf32>
      %v = affine.load %m[%i, %j] : memref<8x8xf32>
      // CHECK: %[[FOUR:.*]] = arith.constant 4 : index
      // CHECK: %[[T:.*]] = arith.muli %[[I]], %[[FOUR]] : index
      // CHECK: %[[K:.*]] = arith.addi %[[T]], %[[J]] : index
      // CHECK: %[[R:.*]] = arith.remsi %[[K]], %{{.*}} : index
      // CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[R]], %{{.*}} : index
      // CHECK: %[[UP:.*]] = arith.addi %[[R]], %{{.*}} : index
      // CHECK: %[[MOD:.*]] = arith.select %[[NEG]], %[[UP]], %[[R]] : index
      %k = affine.apply affine_map<(d0, d1) -> ((d0 * 4 + d1) mod 8)>(%i, %j)
      // CHECK: memref.store %[[V]], %{{.*}}[%[[MOD]], %[[J]]] : memref<8x8xf32>
      affine.store %v, %m[%k, %j] : memref<8x8xf32>
    // CHECK: } {d2m.blocking_loop = 1 : i64}
    } {d2m.blocking_loop = 1}
  }
  // CHECK-NOT: affine.
  return
}
