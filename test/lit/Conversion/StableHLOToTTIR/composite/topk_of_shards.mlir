// RUN: ttmlir-opt --legalize-stablehlo-composite-to-ttir %s | FileCheck %s

// A topk of columns just gathered from 2 chips: each chip's topk of its own 64 columns (a whole tile of 32
// candidates, as 2 x 5 would not fill one), the candidates gathered and their indices offset by the chip's
// first column (0 or 64), their topk, the winners' indices looked up, cut back to 5.
// CHECK-LABEL: func.func @topk_of_gathered_columns
// CHECK-NOT: stablehlo.all_gather
// CHECK: %[[V:.*]], %[[I:.*]] = "ttir.topk"(%arg1) <{dim = 1 : i32, k = 32 : i32, largest = true, sorted = false}> : (tensor<2x64xf32>) -> (tensor<2x32xf32>, tensor<2x32xi32>)
// CHECK: %[[GV:.*]] = "ttir.all_gather"(%[[V]]) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<2x32xf32>) -> tensor<2x64xf32>
// CHECK: %[[GI:.*]] = "ttir.all_gather"(%[[I]]) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<2x32xi32>) -> tensor<2x64xi32>
// CHECK: %[[START:.*]] = "ttir.constant"() {{.*}} -> tensor<2x64xi32>
// CHECK: %[[AT:.*]] = "ttir.add"(%[[GI]], %[[START]])
// CHECK: %[[BV:.*]], %[[BI:.*]] = "ttir.topk"(%[[GV]]) <{dim = 1 : i32, k = 32 : i32, largest = true, sorted = true}>
// CHECK: %[[IDX:.*]] = "ttir.gather"(%[[AT]], %[[BI]]) <{dim = 1 : i32}>
// CHECK: "ttir.slice_static"(%[[BV]]) {{.*}} -> tensor<2x5xf32>
// CHECK: %[[CUT:.*]] = "ttir.slice_static"(%[[IDX]]) {{.*}} -> tensor<2x5xi32>
// CHECK: "ttir.typecast"(%[[CUT]]) : (tensor<2x5xi32>) -> tensor<2x5xi64>
sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func @topk_of_gathered_columns(%arg0: tensor<2x128xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>) {
  %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<2x64xf32>) {
    %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2x64xf32>) -> tensor<2x128xf32>
    %2:2 = stablehlo.composite "tenstorrent.topk" %1 {composite_attributes = {dim = -1 : i64, k = 5 : i64, largest = true, sorted = true}, decomposition = @impl} : (tensor<2x128xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>)
    sdy.return %2#0, %2#1 : tensor<2x5xf32>, tensor<2x5xi64>
  } : (tensor<2x128xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>)
  return %0#0, %0#1 : tensor<2x5xf32>, tensor<2x5xi64>
}

// Gathered along another dim than the topk's: the topk of the whole gathered tensor.
// CHECK-LABEL: func.func @topk_across_gathered_rows
// CHECK: stablehlo.all_gather
// CHECK: "ttir.topk"{{.*}} : (tensor<4x64xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>)
// CHECK-NOT: ttir.all_gather
func.func @topk_across_gathered_rows(%arg0: tensor<4x64xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>) {
  %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<2x64xf32>) {
    %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2x64xf32>) -> tensor<4x64xf32>
    %2:2 = stablehlo.composite "tenstorrent.topk" %1 {composite_attributes = {dim = -1 : i64, k = 5 : i64, largest = true, sorted = true}, decomposition = @impl2} : (tensor<4x64xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>)
    sdy.return %2#0, %2#1 : tensor<4x5xf32>, tensor<4x5xi64>
  } : (tensor<4x64xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>)
  return %0#0, %0#1 : tensor<4x5xf32>, tensor<4x5xi64>
}
func.func private @impl(%x: tensor<2x128xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>) {
  %v = stablehlo.slice %x [0:2, 0:5] : (tensor<2x128xf32>) -> tensor<2x5xf32>
  %i = stablehlo.constant dense<0> : tensor<2x5xi64>
  return %v, %i : tensor<2x5xf32>, tensor<2x5xi64>
}
func.func private @impl2(%x: tensor<4x64xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>) {
  %v = stablehlo.slice %x [0:4, 0:5] : (tensor<4x64xf32>) -> tensor<4x5xf32>
  %i = stablehlo.constant dense<0> : tensor<4x5xi64>
  return %v, %i : tensor<4x5xf32>, tensor<4x5xi64>
}
