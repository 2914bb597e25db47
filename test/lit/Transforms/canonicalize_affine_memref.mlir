// RUN: ttmlir-opt --canonicalize %s | FileCheck %s
// What MLIR's canonicalize does to the affine/memref/arith IR of compute kernels: constant indices fold into access
// maps (unused ones dropped), an unused load and an empty loop go away, a comparison of constants folds (and the
// scf.if it guards goes or is inlined), and a whole-memref subview at offset 0 is its source (a cast for other users).

#l1 = #ttcore.memory_space<l1>
!m = memref<2x4xf32, #l1>

// CHECK-LABEL: func.func @access
func.func @access(%m: !m, %v: f32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  // CHECK-NEXT: affine.for %[[I:.*]] = 0 to 2 {
  affine.for %i = 0 to 2 {
    // CHECK-NEXT: %[[X:.*]] = affine.load %arg0[%[[I]], 3] : memref<2x4xf32, #l1>
    %x = affine.load %m[%i, %c3] : !m
    // CHECK-NEXT: affine.store %[[X]], %arg0[0, %[[I]] + 1] : memref<2x4xf32, #l1>
    affine.store %x, %m[%c0, %i + 1] : !m
    // CHECK-NEXT: }
    %unused = affine.load %m[%i, %i] : !m
  }
  // CHECK-NOT: affine.for
  affine.for %j = 0 to 4 {
  }
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : index
  %ne = arith.cmpi ne, %c0, %zero : index
  // CHECK-NOT: scf.if
  scf.if %ne {
    affine.store %v, %m[0, 0] : !m
  }
  %lt = arith.cmpi ult, %c0, %c1 : index
  // CHECK-NEXT: affine.store %arg1, %arg0[1, 1]
  scf.if %lt {
    affine.store %v, %m[1, 1] : !m
  }
  return
}

// CHECK-LABEL: func.func @subviews
// CHECK-NEXT: %c1 = arith.constant 1 : index
func.func @subviews(%m: !m, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %whole = memref.subview %m[%c0, %c0] [2, 4] [1, 1] : !m to memref<2x4xf32, strided<[4, 1], offset: ?>, #l1>
  // CHECK-NEXT: affine.store %arg1, %arg0[1, 2] : memref<2x4xf32, #l1>
  affine.store %v, %whole[1, 2] : memref<2x4xf32, strided<[4, 1], offset: ?>, #l1>
  // CHECK-NEXT: %[[CAST:.*]] = memref.cast %arg0 : memref<2x4xf32, #l1> to memref<2x4xf32, strided<[4, 1], offset: ?>, #l1>
  %kept = memref.subview %m[0, %c0] [2, 4] [1, 1] : !m to memref<2x4xf32, strided<[4, 1], offset: ?>, #l1>
  // CHECK-NEXT: memref.copy %[[CAST]], %arg0
  "memref.copy"(%kept, %m) : (memref<2x4xf32, strided<[4, 1], offset: ?>, #l1>, !m) -> ()
  // CHECK-NEXT: %[[PART:.*]] = memref.subview %arg0[%c1, 0] [1, 4] [1, 1]
  %part = memref.subview %m[%c1, 0] [1, 4] [1, 1] : !m to memref<1x4xf32, strided<[4, 1], offset: ?>, #l1>
  affine.store %v, %part[0, 2] : memref<1x4xf32, strided<[4, 1], offset: ?>, #l1>
  return
}

// A subview of a cast that only forgets what its source's type knew (here the offset) is a subview of the source:
// the loads through it name the buffer itself (MLIR's SubViewOpMemRefCastFolder). A cast to a type that knows more
// than its source stays under the view.
// CHECK-LABEL: func.func @subview_of_cast
// CHECK-SAME: (%[[M:.*]]: memref<2x4xf32, #l1>, %[[I:.*]]: index, %[[D:.*]]: memref<2x4xf32, strided<[4, 1], offset: ?>, #l1>)
func.func @subview_of_cast(%m: !m, %i: index, %d: memref<2x4xf32, strided<[4, 1], offset: ?>, #l1>) -> (f32, f32) {
  %forgets = memref.cast %m : !m to memref<2x4xf32, strided<[4, 1], offset: ?>, #l1>
  // CHECK-NEXT: %[[V:.*]] = memref.subview %[[M]][%[[I]], 0] [1, 4] [1, 1] : memref<2x4xf32, #l1> to memref<1x4xf32, strided<[4, 1], offset: ?>, #l1>
  %v = memref.subview %forgets[%i, 0] [1, 4] [1, 1] : memref<2x4xf32, strided<[4, 1], offset: ?>, #l1> to memref<1x4xf32, strided<[4, 1], offset: ?>, #l1>
  // CHECK-NEXT: memref.load %[[V]]
  %x = memref.load %v[%i, %i] : memref<1x4xf32, strided<[4, 1], offset: ?>, #l1>
  // CHECK-NEXT: %[[KNOWS:.*]] = memref.cast %[[D]]
  %knows = memref.cast %d : memref<2x4xf32, strided<[4, 1], offset: ?>, #l1> to memref<2x4xf32, strided<[4, 1]>, #l1>
  // CHECK-NEXT: memref.subview %[[KNOWS]]
  %w = memref.subview %knows[%i, 0] [1, 4] [1, 1] : memref<2x4xf32, strided<[4, 1]>, #l1> to memref<1x4xf32, strided<[4, 1], offset: ?>, #l1>
  %y = memref.load %w[%i, %i] : memref<1x4xf32, strided<[4, 1], offset: ?>, #l1>
  return %x, %y : f32, f32
}
