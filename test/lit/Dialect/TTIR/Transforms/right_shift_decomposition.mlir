// RUN: ttmlir-opt --ttir-to-ttir-decomposition %s | FileCheck %s
// RUN: ttmlir-opt --ttir-to-ttir-decomposition="config=ttmetal" %s | FileCheck %s --check-prefix=METAL
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline %s | FileCheck %s --check-prefix=TTNN
// TTNN has no arithmetic right shift: it becomes logical shifts of the value with its sign flipped in and out,
// (a ^ s) >>> b ^ s where s = -(a < 0) is all ones for a negative a. D2M lowers the op itself (tile_right_shift).

// CHECK-LABEL: func.func @shift
// CHECK: %[[ZERO:.*]] = "ttir.full"() <{fill_value = 0 : i32, shape = array<i32: 1, 1>}> : () -> tensor<1x1xsi32>
// CHECK: %[[NEG:.*]] = "ttir.lt"(%arg0, %[[ZERO]])
// CHECK: %[[SIGN:.*]] = "ttir.neg"(%[[NEG]])
// CHECK: %[[FLIP:.*]] = "ttir.bitwise_xor"(%arg0, %[[SIGN]])
// CHECK: %[[SHIFT:.*]] = "ttir.logical_right_shift"(%[[FLIP]], %arg1)
// CHECK: %[[R:.*]] = "ttir.bitwise_xor"(%[[SHIFT]], %[[SIGN]])
// CHECK: return %[[R]]
// METAL-LABEL: func.func @shift
// METAL: "ttir.right_shift"(%arg0, %arg1)
// TTNN: "ttnn.logical_right_shift"
// TTNN-NOT: right_shift"
func.func @shift(%a: tensor<32x64xsi32>, %b: tensor<32x64xsi32>) -> tensor<32x64xsi32> {
  %0 = "ttir.right_shift"(%a, %b) : (tensor<32x64xsi32>, tensor<32x64xsi32>) -> tensor<32x64xsi32>
  return %0 : tensor<32x64xsi32>
}
