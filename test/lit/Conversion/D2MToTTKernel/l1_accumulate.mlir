// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel %s | FileCheck %s
// RUN: ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel --convert-ttkernel-to-emitc %s | FileCheck %s --check-prefix=EMITC
// d2m.set_l1_accumulate switches the packer's L1 accumulation (ttkernel.pack_reconfig_l1_acc); the packer keeps its
// configuration past the program, so the kernel switches it off again before it returns. In C++ the call runs on
// the pack thread: PACK((llk_pack_reconfig_l1_acc(flag))).

// CHECK-LABEL: func.func private @accumulating
// CHECK: %[[ON:.*]] = arith.constant 1 : i32
// CHECK-NEXT: ttkernel.pack_reconfig_l1_acc(%[[ON]]) : (i32) -> ()
// CHECK: %[[OFF:.*]] = arith.constant 0 : i32
// CHECK-NEXT: ttkernel.pack_reconfig_l1_acc(%[[OFF]]) : (i32) -> ()
// CHECK-NEXT: return
// EMITC-LABEL: func.func private @accumulating
// EMITC: %[[ON:.*]] = "emitc.constant"() <{value = 1 : i32}> : () -> i32
// EMITC-NEXT: emitc.verbatim "PACK((llk_pack_reconfig_l1_acc({})));" args %[[ON]] : i32
// EMITC: emitc.verbatim "PACK((llk_pack_reconfig_l1_acc({})));" args %{{.*}} : i32
// EMITC-NEXT: return
func.func private @accumulating() attributes {d2m.thread = #d2m.thread<compute>} {
  %on = arith.constant 1 : i32
  d2m.set_l1_accumulate(%on)
  return
}
