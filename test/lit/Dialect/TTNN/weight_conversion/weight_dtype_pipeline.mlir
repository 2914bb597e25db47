// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s --check-prefix=ARG
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="experimental-weight-dtype=bfp_bf4" %s | FileCheck %s --check-prefix=ALL
// RUN: not ttmlir-opt --ttir-to-ttnn-backend-pipeline="experimental-weight-dtype=bfp_bf2" %s 2>&1 | FileCheck %s --check-prefix=BAD

// Weights (parameter arguments) of linear/matmul are converted to a block float (a tile element type, as the
// block float has no scalar type) before the op reads them: the
// annotated one to its own type; with experimental-weight-dtype, every weight (bfp_bf4 through the host, as the
// device's typecast packs only bfp_bf8). Activations are not converted.
module {
  func.func @mlp(%x: tensor<32x64xf32>, %w1: tensor<128x64xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttcore.weight_dtype = "bfp_bf8"}, %w2: tensor<128x32xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %b: tensor<128xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.linear"(%x, %w1, %b) <{transpose_a = false, transpose_b = true}> : (tensor<32x64xf32>, tensor<128x64xf32>, tensor<128xf32>) -> tensor<32x128xf32>
    %1 = "ttir.matmul"(%0, %w2) : (tensor<32x128xf32>, tensor<128x32xf32>) -> tensor<32x32xf32>
    return %1 : tensor<32x32xf32>
  }
}
// ARG-DAG: #[[BF8:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}memref<4x2x!ttcore.tile<32x32, bfp_bf8>, #dram>
// With const-eval (on by default) the conversion is const-eval work: done once, in a function of the weight.
// ARG-LABEL: func.func private @mlp_const_eval_0
// ARG: "ttnn.to_device"(%arg0
// ARG: "ttnn.typecast"
// ARG-SAME: -> tensor<128x64x!ttcore.tile<32x32, bfp_bf8>, #[[BF8]]>
// ARG-LABEL: func.func @mlp(
// ARG: %[[W:[0-9]+]] = ttcore.load_cached(@mlp_const_eval_0, [%arg1])
// ARG: "ttnn.linear"(%arg0, %[[W]], %arg3)
// ARG-NOT: "ttnn.typecast"
// ARG: "ttnn.matmul"(%{{[0-9]+}}, %arg2)

// ALL-DAG: #[[A8:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}memref<4x2x!ttcore.tile<32x32, bfp_bf8>, #dram>
// ALL-DAG: #[[B4:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}memref<4x1x!ttcore.tile<32x32, bfp_bf4>, #dram>
// ALL-LABEL: func.func private @mlp_const_eval_0
// ALL: "ttnn.typecast"
// ALL-SAME: -> tensor<128x64x!ttcore.tile<32x32, bfp_bf8>, #[[A8]]>
// ALL-LABEL: func.func private @mlp_const_eval_1
// ALL: %[[HOST:[0-9]+]] = "ttnn.from_device"
// ALL: %[[B4CAST:[0-9]+]] = "ttnn.typecast"(%[[HOST]])
// ALL-SAME: -> tensor<128x32x!ttcore.tile<32x32, bfp_bf4>, #{{ttnn_layout[0-9]*}}>
// ALL: "ttnn.to_device"(%[[B4CAST]], %{{[0-9]+}})
// ALL-SAME: -> tensor<128x32x!ttcore.tile<32x32, bfp_bf4>, #[[B4]]>
// ALL-LABEL: func.func @mlp(
// ALL: "ttnn.linear"
// ALL: "ttnn.matmul"

// BAD: error: target-dtype 'bfp_bf2' is not one of none, bfp_bf8, bfp_bf4
