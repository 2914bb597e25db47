// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: FileCheck %s --check-prefix=KERNEL --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// Tensor manipulations moving elements between tiles: the input moved to DRAM and seen through a d2m.view_layout
// whose remapping maps an output element (matrix, row, column) to the input's, copied by a generic. A slice with
// steps maps each index to begin + step * index; a concat pads each input with zeros at its place (the remapping
// shifts the index back, an element outside the input stays zero) and adds the pads.

// CHECK-DAG: #[[STEPS:map[0-9]*]] = affine_map<(d0, d1, d2) -> ((d0 floordiv 4) * 2 + 1, d0 mod 4 + 3, d1 * 3 + 16, d2 + 2)>
// CHECK-DAG: #[[SECOND:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2 - 5)>

// CHECK-LABEL: func.func @slice_with_steps
// CHECK: %[[DRAM:.*]] = d2m.to_layout %{{.*}}, %{{.*}} : tensor<6x8x40x4xf32> into tensor<1x1x96x1x!ttcore.tile<32x32, f32>, #[[IN:layout[0-9]*]]>
// CHECK: %[[VIEW:.*]] = d2m.view_layout %[[DRAM]] remapping = #[[STEPS]] : {{.*}} -> tensor<1x1x12x1x!ttcore.tile<32x32, f32>, #{{.*}}>
// CHECK: d2m.generic
// CHECK-NEXT: ins(%[[VIEW]] :
func.func @slice_with_steps(%a: tensor<6x8x40x4xf32>) -> tensor<3x4x8x2xf32> {
  %0 = "ttir.slice_static"(%a) <{begins = [1 : i32, 3 : i32, 16 : i32, 2 : i32], ends = [6 : i32, 7 : i32, 40 : i32, 4 : i32], step = [2 : i32, 1 : i32, 3 : i32, 1 : i32]}> : (tensor<6x8x40x4xf32>) -> tensor<3x4x8x2xf32>
  return %0 : tensor<3x4x8x2xf32>
}

// CHECK-LABEL: func.func @concat_last_dim
// CHECK: d2m.view_layout %{{.*}} remapping = #{{map[0-9]*}} : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #{{.*}}> -> tensor<1x1x2x1x
// CHECK: d2m.view_layout %{{.*}} remapping = #[[SECOND]] : tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #{{.*}}> -> tensor<1x1x2x1x
// CHECK: d2m.generic
// CHECK: d2m.tile_add
func.func @concat_last_dim(%a: tensor<2x20x5xf32>, %b: tensor<2x20x7xf32>) -> tensor<2x20x12xf32> {
  %0 = "ttir.concat"(%a, %b) <{dim = 2 : si32}> : (tensor<2x20x5xf32>, tensor<2x20x7xf32>) -> tensor<2x20x12xf32>
  return %0 : tensor<2x20x12xf32>
}

// The slice's reader copies element by element: each output tile zeroed, each source tile read whole into a
// scratch page after the CB's pages when it is not the one read last, the element copied within L1.
// KERNEL-LABEL: func.func private @datamovement_kernel0()
// KERNEL: emitc.call_opaque "reinterpret_cast"
// KERNEL: scf.if
// KERNEL: scf.if
// KERNEL: noc0.async_read(dram_ep
// KERNEL-NEXT: noc0.async_read_barrier()
// KERNEL: emitc.subscript
// TTRT: launch {{[0-9]+}}: {{[0-9,]+}} cycles
