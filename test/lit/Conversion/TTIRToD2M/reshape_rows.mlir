// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline -o %t.mlir %s
// RUN: FileCheck %s --check-prefix=KERNEL --input-file=%t.mlir
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// A reshape keeping the last dim whose rows change tiles (32 matrices of one row into one matrix of 32): its input
// moved to DRAM and viewed as the result's shape, the view copied; the copy's reader zeroes each output tile and
// reads each of its face rows that is not padding from the input's face row of the same logical index.

// CHECK-LABEL: func.func @rows
// CHECK: d2m.tile_abs
// CHECK: %[[DRAM:.*]] = d2m.to_layout %{{.*}}, %{{.*}} : tensor<32x1x64xf32> into tensor<1x1x32x2x!ttcore.tile<32x32, f32>, #[[IN:layout[0-9]*]]>
// CHECK: %[[VIEW:.*]] = d2m.view_layout %[[DRAM]]{{.*}} -> tensor<1x1x1x2x!ttcore.tile<32x32, f32>, #[[OUT:layout[0-9]*]]>
// CHECK: d2m.generic
// CHECK-NEXT: ins(%[[VIEW]] :
// KERNEL: func.func private @datamovement_kernel0()
// KERNEL: %[[WORDS:.*]] = emitc.call_opaque "reinterpret_cast"
// KERNEL: emitc.subscript %[[WORDS]]
// KERNEL: scf.if
// KERNEL: noc0.async_read(dram_ep
// KERNEL: noc0.async_read(dram_ep
// KERNEL: noc0.async_read_barrier()
// TTRT: launch {{[0-9]+}}: {{[0-9,]+}} cycles
func.func @rows(%a: tensor<32x1x64xf32>) -> (tensor<32x64xf32>, tensor<32x1x64xf32>) {
  // a computed tensor (returned too, so the pipeline does not move the reshape above it): an argument's reshape is
  // a view the host makes (host_view.mlir)
  %abs = "ttir.abs"(%a) : (tensor<32x1x64xf32>) -> tensor<32x1x64xf32>
  %0 = "ttir.reshape"(%abs) <{shape = [32 : i32, 64 : i32]}> : (tensor<32x1x64xf32>) -> tensor<32x64xf32>
  return %0, %abs : tensor<32x64xf32>, tensor<32x1x64xf32>
}
