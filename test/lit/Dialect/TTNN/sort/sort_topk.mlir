// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt run %t.ttnn | FileCheck %s --check-prefix=EXEC

// Sort and top-k lower one to one, defaults spelled out with TTNN's integer types; the workarounds make them
// what the kernels take: bf16 values (f32 converted there and back), u16 indices (u32 past 65535 positions).
func.func @sort_f32(%arg0: tensor<8x40xf32>) -> (tensor<8x40xf32>, tensor<8x40xsi32>) {
  // CHECK-LABEL: @sort_f32
  // CHECK: %[[IN:[0-9]+]] = "ttnn.typecast"(%arg0)
  // CHECK-SAME: -> tensor<8x40xbf16
  // CHECK: %[[VALUES:values]], %[[INDICES:indices]] = "ttnn.sort"(%[[IN]]) <{descending = true, dim = 0 : si8, stable = false}>
  // CHECK-SAME: -> (tensor<8x40xbf16, {{.*}}>, tensor<8x40xui16,
  // CHECK-DAG: "ttnn.typecast"(%[[INDICES]]) {{.*}} -> tensor<8x40xsi32,
  // CHECK-DAG: "ttnn.typecast"(%[[VALUES]]) {{.*}} -> tensor<8x40xf32,
  %0, %1 = "ttir.sort"(%arg0) <{dim = 0 : si32, descending = true}> : (tensor<8x40xf32>) -> (tensor<8x40xf32>, tensor<8x40xsi32>)
  return %0, %1 : tensor<8x40xf32>, tensor<8x40xsi32>
}

func.func @topk_bf16(%arg0: tensor<2x4x70000xbf16>) -> (tensor<2x4x3xbf16>, tensor<2x4x3xui32>) {
  // CHECK-LABEL: @topk_bf16
  // CHECK: "ttnn.topk"(%arg0) <{dim = -1 : si32, k = 3 : i32, largest = false, sorted = false}>
  // CHECK-SAME: -> (tensor<2x4x3xbf16, {{.*}}>, tensor<2x4x3xui32,
  // CHECK-NOT: ttnn.typecast
  // CHECK: return
  %0, %1 = "ttir.topk"(%arg0) <{k = 3 : i32, largest = false}> : (tensor<2x4x70000xbf16>) -> (tensor<2x4x3xbf16>, tensor<2x4x3xui32>)
  return %0, %1 : tensor<2x4x3xbf16>, tensor<2x4x3xui32>
}
// EXEC: PASS
