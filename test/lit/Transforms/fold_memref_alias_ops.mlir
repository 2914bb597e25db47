// RUN: ttmlir-opt --fold-memref-alias-ops %s | FileCheck %s
// RUN: ttmlir-opt --fold-memref-alias-ops --lower-affine %s | FileCheck %s --check-prefix=LOWERED
// Loads and stores through a memref.subview read and write the view's source: each index becomes the view's
// offset plus the index times its stride (an affine.apply, lowered to arith by --lower-affine). A unit-stride view
// at offset 0 along a dim keeps that index as it is; a rank-reducing view is left alone.

#l1 = #ttcore.memory_space<l1>

// CHECK-DAG: #[[ROWS:.*]] = affine_map<(d0) -> (d0 * 2 + 1)>
// CHECK-DAG: #[[COLS:.*]] = affine_map<(d0) -> (d0 + 4)>
// CHECK-DAG: #[[SHIFT:.*]] = affine_map<(d0)[s0] -> (s0 + d0)>

// CHECK-LABEL: func.func @static_view
// CHECK-SAME: (%[[SRC:.*]]: memref<4x8xf32, #l1>, %[[I:.*]]: index, %[[J:.*]]: index
// CHECK-NOT: memref.subview
// CHECK: %[[ROW:.*]] = affine.apply #[[ROWS]] (%[[I]])
// CHECK: %[[COL:.*]] = affine.apply #[[COLS]] (%[[J]])
// CHECK: %[[X:.*]] = memref.load %[[SRC]][%[[ROW]], %[[COL]]] : memref<4x8xf32, #l1>
// CHECK: memref.store %[[X]], %[[SRC]][%{{.*}}, %{{.*}}] : memref<4x8xf32, #l1>
// LOWERED-LABEL: func.func @static_view
// LOWERED-NOT: affine.apply
// LOWERED: arith.muli
// LOWERED: memref.load %arg0
func.func @static_view(%src: memref<4x8xf32, #l1>, %i: index, %j: index) {
  %v = memref.subview %src[1, 4] [2, 4] [2, 1] : memref<4x8xf32, #l1> to memref<2x4xf32, strided<[16, 1], offset: 12>, #l1>
  %x = memref.load %v[%i, %j] : memref<2x4xf32, strided<[16, 1], offset: 12>, #l1>
  memref.store %x, %v[%j, %i] : memref<2x4xf32, strided<[16, 1], offset: 12>, #l1>
  return
}

// CHECK-LABEL: func.func @dynamic_offsets
// CHECK-SAME: (%[[SRC:.*]]: memref<4x8xf32>, %[[A:.*]]: index, %[[B:.*]]: index
// The dynamic offsets are symbols of the maps; dim 1 has stride 1.
// CHECK: %[[ROW:.*]] = affine.apply #[[SHIFT]] (%[[B]])[%[[A]]]
// CHECK: %[[COL:.*]] = affine.apply #[[SHIFT]] (%[[A]])[%[[B]]]
// CHECK: memref.load %[[SRC]][%[[ROW]], %[[COL]]] : memref<4x8xf32>
func.func @dynamic_offsets(%src: memref<4x8xf32>, %a: index, %b: index) -> f32 {
  %v = memref.subview %src[%a, %b] [1, 2] [1, 1] : memref<4x8xf32> to memref<1x2xf32, strided<[8, 1], offset: ?>>
  %x = memref.load %v[%b, %a] : memref<1x2xf32, strided<[8, 1], offset: ?>>
  return %x : f32
}

// CHECK-LABEL: func.func @rank_reducing
// CHECK: %[[V:.*]] = memref.subview
// CHECK: memref.load %[[V]]
func.func @rank_reducing(%src: memref<4x8xf32>, %i: index) -> f32 {
  %v = memref.subview %src[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  %x = memref.load %v[%i] : memref<8xf32, strided<[1], offset: 8>>
  return %x : f32
}
