// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: FileCheck %s --check-prefix=KERNEL --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// Tensor manipulations moving elements between tiles, seen through a d2m.view_layout whose remapping maps an
// output element to the input's, copied by a generic. A slice above two dims cutting tiles keeps its tensors at
// their rank in row-major elements (as upstream), its remapping each index to begin + step * index on the unit-grid
// forms; a concat moves its inputs to DRAM, pads each with zeros at its place (the remapping, on (matrix, row,
// column), shifts the index back, an element outside the input stays zero) and adds the pads.

// CHECK-DAG: #[[STEPS:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (0, 0, 0, 0, d4 * 2 + 1, d5 + 3, d6 * 3 + 16, d7 + 2)>
// CHECK-DAG: #[[SECOND:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2 - 5)>

// CHECK-LABEL: func.func @slice_with_steps
// CHECK: %[[RM:.*]] = d2m.to_layout %{{.*}}, %{{.*}} : tensor<6x8x40x4xf32> into tensor<1x1x1x1x6x8x64x32xf32, #{{.*}}>
// CHECK: %[[VIEW:.*]] = d2m.view_layout %[[RM]] remapping = #[[STEPS]] : {{.*}} -> tensor<1x1x1x1x3x4x32x32xf32, #{{.*}}>
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

// The slice's one kernel fills its output shard in place: each output row that is not padding read from the core
// holding its source row, in one read (the last dim steps by 1 and is whole in one shard).
// KERNEL-LABEL: func.func private @datamovement_kernel0()
// KERNEL-SAME: rt_args = [<arg_type = cb_port, operand_index = 0>, <arg_type = buffer_address, operand_index = 0>]
// KERNEL: emitc.for
// KERNEL-NEXT: emitc
// KERNEL: scf.if
// KERNEL: noc0.async_read(unicast_ep, CoreLocalMem<uint32_t>({}), {}, {{[{][{]}}.noc_x = {}, .noc_y = {}
// KERNEL-NOT: emitc.for
// KERNEL: noc0.async_read_barrier()
// KERNEL-NEXT: cb_arg_0.push_back
// TTRT: launch {{[0-9]+}}: {{[0-9,]+}} cycles
