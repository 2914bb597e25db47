// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s
// RUN: ttmlir-opt --canonicalize %s | FileCheck %s --check-prefix=FOLD

// ttir.scatter lowers to ttnn.scatter with a signed dim and a si32 index; tiled f32 data and the
// index scatter row-major. Scattering nothing folds to the input.
func.func @scatter_rows(%arg0: tensor<64x32xf32>, %arg1: tensor<8x32xi64>, %arg2: tensor<8x32xf32>) -> tensor<64x32xf32> {
  // CHECK-LABEL: func.func @scatter_rows
  // CHECK: "ttnn.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{dim = 0 : si32, scatter_reduce_type = #ttcore.reduce_type<sum>}>
  // CHECK-SAME: tensor<8x32xsi32
  // FOLD-LABEL: func.func @scatter_rows
  // FOLD: ttir.scatter
  %0 = "ttir.scatter"(%arg0, %arg1, %arg2) <{dim = 0 : i32, scatter_reduce_type = #ttcore.reduce_type<sum>}> : (tensor<64x32xf32>, tensor<8x32xi64>, tensor<8x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

func.func @scatter_nothing(%arg0: tensor<64x32xf32>, %arg1: tensor<0x32xi32>, %arg2: tensor<0x32xf32>) -> tensor<64x32xf32> {
  // FOLD-LABEL: func.func @scatter_nothing
  // FOLD-NOT: ttir.scatter
  // FOLD: return %arg0
  %0 = "ttir.scatter"(%arg0, %arg1, %arg2) <{dim = 0 : i32, scatter_reduce_type = #ttcore.reduce_type<invalid>}> : (tensor<64x32xf32>, tensor<0x32xi32>, tensor<0x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}
