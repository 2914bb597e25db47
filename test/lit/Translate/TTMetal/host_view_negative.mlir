// RUN: not ttmlir-translate --ttmetal-to-flatbuffer %s 2>&1 | FileCheck %s
// A host view is serialized as a memref copy into its shape: only a row-major buffer seen from its first element as
// a row-major buffer of as many elements is one (not a transposed view, nor a part of the buffer).

// CHECK: host_view_negative.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: only reinterpret_casts of a row-major host buffer to a row-major shape of as many elements are serialized
// CHECK-NOT: Traceback
func.func @transposed(%arg0: memref<4x6xf32>) -> memref<6x4xf32, strided<[1, 6]>> {
  %0 = memref.reinterpret_cast %arg0 to offset: [0], sizes: [6, 4], strides: [1, 6] : memref<4x6xf32> to memref<6x4xf32, strided<[1, 6]>>
  return %0 : memref<6x4xf32, strided<[1, 6]>>
}
