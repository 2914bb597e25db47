// RUN: ttmlir-opt --ttir-fusing %s | FileCheck %s
// A sort cut by slices to k entries at one end of its dim is a topk: the first k keep the sort's direction,
// the last k take the other end; anything else stays a sort.

// CHECK-LABEL: func.func @first_k_of_ascending
func.func @first_k_of_ascending(%x: tensor<3x10xbf16>) -> (tensor<3x4xbf16>, tensor<3x4xsi32>) {
  // CHECK: %[[V:.*]], %[[I:.*]] = "ttir.topk"(%arg0) <{dim = 1 : i32, k = 4 : i32, largest = false, sorted = true}>
  // CHECK-NOT: ttir.sort
  // CHECK: return %[[V]], %[[I]]
  %v, %i = "ttir.sort"(%x) <{descending = false, dim = -1 : si32, stable = true}> : (tensor<3x10xbf16>) -> (tensor<3x10xbf16>, tensor<3x10xsi32>)
  %0 = "ttir.slice_static"(%v) <{begins = [0 : i32, 0 : i32], ends = [3 : i32, 4 : i32], step = [1 : i32, 1 : i32]}> : (tensor<3x10xbf16>) -> tensor<3x4xbf16>
  %1 = "ttir.slice_static"(%i) <{begins = [0 : i32, 0 : i32], ends = [3 : i32, 4 : i32], step = [1 : i32, 1 : i32]}> : (tensor<3x10xsi32>) -> tensor<3x4xsi32>
  return %0, %1 : tensor<3x4xbf16>, tensor<3x4xsi32>
}

// CHECK-LABEL: func.func @last_k_values_of_descending_on_dim0
func.func @last_k_values_of_descending_on_dim0(%x: tensor<8x2xf32>) -> tensor<3x2xf32> {
  // CHECK: %[[V:.*]], %{{.*}} = "ttir.topk"(%arg0) <{dim = 0 : i32, k = 3 : i32, largest = false, sorted = true}> : (tensor<8x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xsi32>)
  // CHECK: return %[[V]]
  %v, %i = "ttir.sort"(%x) <{descending = true, dim = 0 : si32, stable = false}> : (tensor<8x2xf32>) -> (tensor<8x2xf32>, tensor<8x2xsi32>)
  %0 = "ttir.slice_static"(%v) <{begins = [5 : i32, 0 : i32], ends = [8 : i32, 2 : i32], step = [1 : i32, 1 : i32]}> : (tensor<8x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @kept
func.func @kept(%x: tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<1x6xsi32>, tensor<2x6xf32>) {
  // a window in the middle, a cut of another dim, a value read whole: no topk
  // CHECK-NOT: ttir.topk
  // CHECK-COUNT-3: "ttir.sort"
  %v, %i = "ttir.sort"(%x) <{descending = true, dim = 1 : si32, stable = false}> : (tensor<2x6xf32>) -> (tensor<2x6xf32>, tensor<2x6xsi32>)
  %0 = "ttir.slice_static"(%v) <{begins = [0 : i32, 1 : i32], ends = [2 : i32, 4 : i32], step = [1 : i32, 1 : i32]}> : (tensor<2x6xf32>) -> tensor<2x3xf32>
  %w, %j = "ttir.sort"(%x) <{descending = true, dim = 1 : si32, stable = false}> : (tensor<2x6xf32>) -> (tensor<2x6xf32>, tensor<2x6xsi32>)
  %1 = "ttir.slice_static"(%j) <{begins = [0 : i32, 0 : i32], ends = [1 : i32, 6 : i32], step = [1 : i32, 1 : i32]}> : (tensor<2x6xsi32>) -> tensor<1x6xsi32>
  %u, %k = "ttir.sort"(%x) <{descending = true, dim = 1 : si32, stable = false}> : (tensor<2x6xf32>) -> (tensor<2x6xf32>, tensor<2x6xsi32>)
  %2 = "ttir.slice_static"(%k) <{begins = [0 : i32, 0 : i32], ends = [2 : i32, 2 : i32], step = [1 : i32, 1 : i32]}> : (tensor<2x6xsi32>) -> tensor<2x2xsi32>
  return %0, %1, %u : tensor<2x3xf32>, tensor<1x6xsi32>, tensor<2x6xf32>
}
