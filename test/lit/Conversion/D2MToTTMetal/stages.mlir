// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --convert-d2m-to-ttkernel %s | FileCheck %s --check-prefix=KERNELS
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --convert-d2m-to-ttkernel --convert-d2m-to-ttmetal="math-fidelity=LoFi" %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --ttir-to-d2m --d2m-grid-selection --convert-d2m-to-ttkernel --convert-d2m-to-ttmetal --convert-ttkernel-to-emitc -o %t.mlir %s
// RUN: ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm %t.mlir
// RUN: ttrt run %t.ttm | FileCheck %s --check-prefix=TTRT
// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttmetal %s 2>&1 | FileCheck %s --check-prefix=TTIR
// RUN: not ttmlir-opt --ttcore-register-device --ttir-to-d2m --convert-d2m-to-ttmetal %s 2>&1 | FileCheck %s --check-prefix=NO-KERNELS
// The kernel path's stages run one by one: convert-d2m-to-ttkernel turns each D2M program ttir-to-d2m and
// d2m-grid-selection write into the generic of its kernels (ttkernel functions, each with the arguments it takes),
// convert-d2m-to-ttmetal into buffers, host transfers and one program per generic (its compute at the fidelity
// asked); a TTIR op left unconverted, or a generic whose kernels are not made, is refused naming it.

// The host data is written row-major and tilized on the device by a program of its own (kernels 0 and 1: no CB of
// it, nor of the exp's program, moves data over the NoC, so each has one data-movement kernel).
// KERNELS: %[[ROWS:.*]] = d2m.to_layout %arg0, %{{.*}} : tensor<64x128xf32> into tensor<2x4x32x32xf32
// KERNELS: %[[TILES:.*]] = d2m.generic {{.*}}@compute_kernel1>]}
// KERNELS-NEXT: ins(%[[ROWS]] :
// KERNELS: d2m.generic {block_factors = [], grid = #ttcore.grid<2x4>, indexing_maps = [], iterator_types = [], threads = [#d2m.thread<datamovement, @datamovement_kernel2, dm_core = 1>, #d2m.thread<compute, @compute_kernel3>]}
// KERNELS-NEXT: ins(%[[TILES]] :
// KERNELS-NEXT: outs(
// KERNELS-NEXT: additionalArgs(
// KERNELS-NOT: d2m.remote_load
// KERNELS: func.func private @compute_kernel1()
// KERNELS: ttkernel.tilize_block
// KERNELS: func.func private @compute_kernel3() attributes {{{.*}}ttkernel.arg_spec = #ttkernel.arg_spec< ct_args = [<arg_type = cb_port, operand_index = 0>, <arg_type = cb_port, operand_index = 1>]>, ttkernel.thread = #ttkernel.thread<compute>}
// KERNELS: ttkernel.exp_tile
// NO-KERNELS: error: a d2m.generic is lowered to TTMetal once its threads name their kernels (--convert-d2m-to-ttkernel makes them)
// CHECK-LABEL: func.func @f
// CHECK: "ttmetal.create_buffer"() <{address = {{[0-9]+}} : i64}> : () -> memref<2x4x1x1x!ttcore.tile<32x32, f32>, #ttcore.shard<4096x4096, 1>, #l1>
// CHECK: "ttmetal.enqueue_write_buffer"(%arg0, %{{.*}}) : (memref<64x128xf32>, memref<2x4x32x32xf32, #ttcore.shard<128x4, 1>, #l1>)
// CHECK: "ttmetal.enqueue_program"{{.*}}#ttmetal.compute_config<@compute_kernel1, #ttmetal.core_range<0x0, 2x4>
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
