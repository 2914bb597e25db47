// RUN: ttmlir-opt --ttir-consolidate-static-cache-updates --cse %s | FileCheck %s

// Two layers' lengths position their cache updates (one through a reshape) and both advance by 1: the
// first layer's length reads the second's, so one add remains. The step counter %arg2 advances by 1 too but
// positions nothing, and layer 3 advances by 2: both keep their own add.
// CHECK-LABEL: func.func @two_layers
// CHECK: %[[ADD:.*]] = "ttir.add"(%arg1, %[[ONE:.*]]) :
// CHECK-NOT: "ttir.add"(%arg0
// CHECK: %[[STEP:.*]] = "ttir.add"(%arg2, %[[ONE]])
// CHECK: %[[L3:.*]] = "ttir.add"(%arg3,
// CHECK: "ttir.update_cache"(%arg4, %arg5, %arg1)
// CHECK: "ttir.update_cache"(%arg4, %arg5, %{{.*}})
// CHECK: return %[[ADD]], %[[ADD]], %[[STEP]], %[[L3]]
func.func @two_layers(%arg0: tensor<1xi32>, %arg1: tensor<1xi32>, %arg2: tensor<1xi32>, %arg3: tensor<1xi32>,
                      %arg4: tensor<1x4x16x32xbf16>, %arg5: tensor<1x4x1x32xbf16>)
    -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) {
  %one = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %two = "ttir.full"() <{shape = array<i32: 1>, fill_value = 2 : i32}> : () -> tensor<1xi32>
  %0 = "ttir.add"(%arg0, %one) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %1 = "ttir.add"(%arg1, %one) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %2 = "ttir.add"(%arg2, %one) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %3 = "ttir.add"(%arg3, %two) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%arg4, %arg5, %arg0) <{batch_offset = 0 : i32}> : (tensor<1x4x16x32xbf16>, tensor<1x4x1x32xbf16>, tensor<1xi32>) -> ()
  %4 = "ttir.reshape"(%arg1) <{shape = [1 : i32]}> : (tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%arg4, %arg5, %4) <{batch_offset = 0 : i32}> : (tensor<1x4x16x32xbf16>, tensor<1x4x1x32xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%arg4, %arg5, %arg3) <{batch_offset = 0 : i32}> : (tensor<1x4x16x32xbf16>, tensor<1x4x1x32xbf16>, tensor<1xi32>) -> ()
  return %0, %1, %2, %3 : tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>
}

// An add read by more than the return is not a write-back: nothing is unified.
// CHECK-LABEL: func.func @also_read
// CHECK: "ttir.add"(%arg0,
// CHECK: "ttir.add"(%arg1,
func.func @also_read(%arg0: tensor<1xi32>, %arg1: tensor<1xi32>, %arg2: tensor<1x4x16x32xbf16>, %arg3: tensor<1x4x1x32xbf16>)
    -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) {
  %one = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %0 = "ttir.add"(%arg0, %one) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %1 = "ttir.add"(%arg1, %one) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %2 = "ttir.multiply"(%0, %0) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%arg2, %arg3, %arg0) <{batch_offset = 0 : i32}> : (tensor<1x4x16x32xbf16>, tensor<1x4x1x32xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%arg2, %arg3, %arg1) <{batch_offset = 0 : i32}> : (tensor<1x4x16x32xbf16>, tensor<1x4x1x32xbf16>, tensor<1xi32>) -> ()
  return %0, %1, %2 : tensor<1xi32>, tensor<1xi32>, tensor<1xi32>
}
