// RUN: ttmlir-opt --remove-dead-values %s | FileCheck %s
// Unread ops go; a private function loses the arguments it never reads and the results no call reads.
// CHECK: func.func private @helper(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: ttir.multiply
// CHECK: call @helper(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: ttir.exp
module {
  func.func private @helper(%a: tensor<4xf32>, %unused: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %0 = "ttir.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = "ttir.multiply"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %0, %1 : tensor<4xf32>, tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %0:2 = call @helper(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %1 = "ttir.exp"(%y) : (tensor<4xf32>) -> tensor<4xf32>
    return %0#0 : tensor<4xf32>
  }
}
