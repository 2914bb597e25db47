// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --convert-d2m-to-ttmetal="math-fidelity=LoFi" %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --convert-d2m-to-ttmetal --convert-ttkernel-to-emitc -o %t.mlir %s
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttmetal %s 2>&1 | FileCheck %s --check-prefix=TTIR
// The kernel path's stages run one by one: the D2M programs ttir-to-d2m and d2m-grid-selection write become buffers,
// host transfers and one program per generic (TTKernel kernels, their compute at the fidelity asked); a TTIR op
// left unconverted is refused naming it.

// CHECK-LABEL: func.func @f
// CHECK: "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64}> : () -> memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
// CHECK: "ttmetal.enqueue_write_buffer"(%arg0, %{{.*}}) : (memref<64x128xf32>,
// CHECK: "ttmetal.enqueue_program"{{.*}}#ttmetal.compute_config<@compute_kernel{{[0-9]+}}, #ttmetal.core_range<0x0, 2x4>{{.*}}lofi
// CHECK: "ttmetal.enqueue_read_buffer"
// CHECK: func.func private @compute_kernel{{[0-9]+}}()
// CHECK: ttkernel.exp_tile
// TTRT: launch 0: {{[0-9,]+}} cycles on 8 core(s)
// TTIR: error: 'ttir.exp' is not lowered to TTMetal yet; the conversion takes D2M programs (--ttir-to-d2m converts TTIR ops to them)
func.func @f(%a: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = "ttir.exp"(%a) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
