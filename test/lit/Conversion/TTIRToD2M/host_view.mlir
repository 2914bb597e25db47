// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: FileCheck %s --check-prefix=METAL --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// A reshape, squeeze or unsqueeze of a function argument keeps the row-major order of the argument's host buffer:
// --ttir-to-d2m leaves it on the host, and only the reshaped tensor is moved to the device (a (64, 32, 3, 3) weight
// as the 2x9 tiles of its (64, 288) matrix, not 2048 tiles of padded 3x3 windows). --convert-d2m-to-ttmetal writes
// it as a memref.reinterpret_cast of the argument's buffer (written row-major, tilized on the device), the flatbuffer as a host copy the runtime holds as a view.
// A reshape of a computed tensor is a program.

// CHECK-LABEL: func.func @weight
// CHECK: %[[FLAT:.*]] = "ttir.reshape"(%arg0) <{shape = [64 : i32, 288 : i32]}> : (tensor<64x32x3x3xf32>) -> tensor<64x288xf32>
// CHECK: d2m.to_layout %[[FLAT]], %{{.*}} : tensor<64x288xf32> into tensor<1x1x2x9x!ttcore.tile<32x32, f32>
// CHECK-NOT: d2m.to_layout %arg0
// CHECK: d2m.tile_add
// METAL-LABEL: func.func @weight
// METAL: %[[VIEW:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [64, 288], strides: [288, 1] : memref<64x32x3x3xf32> to memref<64x288xf32>
// METAL: "ttmetal.enqueue_write_buffer"(%[[VIEW]], %{{.*}}) : (memref<64x288xf32>, memref<{{[0-9x]+}}xf32, #ttcore.shard<
// METAL-NOT: "ttmetal.enqueue_write_buffer"(%arg0
// TTRT: launch {{[0-9]+}}: {{[0-9,]+}} cycles
func.func @weight(%w: tensor<64x32x3x3xf32>, %b: tensor<64x288xf32>) -> tensor<64x288xf32> {
  %0 = "ttir.reshape"(%w) <{shape = [64 : i32, 288 : i32]}> : (tensor<64x32x3x3xf32>) -> tensor<64x288xf32>
  %1 = "ttir.add"(%0, %b) : (tensor<64x288xf32>, tensor<64x288xf32>) -> tensor<64x288xf32>
  return %1 : tensor<64x288xf32>
}

// CHECK-LABEL: func.func @squeezed
// CHECK: %[[S:.*]] = "ttir.squeeze"(%arg0) <{dim = 0 : si32}> : (tensor<1x40x64xbf16>) -> tensor<40x64xbf16>
// CHECK: %[[U:.*]] = "ttir.unsqueeze"(%arg1) <{dim = 0 : si32}> : (tensor<64xbf16>) -> tensor<1x64xbf16>
// CHECK: d2m.to_layout %[[S]]
// CHECK: d2m.to_layout %[[U]]
// CHECK: d2m.tile_mul
func.func @squeezed(%a: tensor<1x40x64xbf16>, %v: tensor<64xbf16>) -> tensor<40x64xbf16> {
  %0 = "ttir.squeeze"(%a) <{dim = 0 : si32}> : (tensor<1x40x64xbf16>) -> tensor<40x64xbf16>
  %1 = "ttir.unsqueeze"(%v) <{dim = 0 : si32}> : (tensor<64xbf16>) -> tensor<1x64xbf16>
  %2 = "ttir.multiply"(%0, %1) : (tensor<40x64xbf16>, tensor<1x64xbf16>) -> tensor<40x64xbf16>
  return %2 : tensor<40x64xbf16>
}

// CHECK-LABEL: func.func @computed
// CHECK: d2m.tile_exp
// CHECK-NOT: "ttir.reshape"
// CHECK: d2m.view_layout
// CHECK: into tensor<8x96xf32>
func.func @computed(%a: tensor<8x3x32xf32>) -> (tensor<8x96xf32>, tensor<8x3x32xf32>) {
  %0 = "ttir.exp"(%a) : (tensor<8x3x32xf32>) -> tensor<8x3x32xf32>
  %1 = "ttir.reshape"(%0) <{shape = [8 : i32, 96 : i32]}> : (tensor<8x3x32xf32>) -> tensor<8x96xf32>
  return %1, %0 : tensor<8x96xf32>, tensor<8x3x32xf32>
}
