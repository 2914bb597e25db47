// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s
// emitc.for counts with one type (induction variable, bounds, step); emitc.conditional picks on an i1 between
// values of its result's type.

func.func @mixed_bounds() {
  %0 = "emitc.constant"() <{value = 0 : index}> : () -> !emitc.size_t
  %1 = "emitc.constant"() <{value = 4 : i32}> : () -> i32
  // expected-error @+1 {{'emitc.for' op expects its induction variable, bounds and step of one type}}
  "emitc.for"(%0, %1, %1) ({
  ^bb0(%arg0: !emitc.size_t):
    "emitc.yield"() : () -> ()
  }) : (!emitc.size_t, i32, i32) -> ()
  return
}

// -----

func.func @wide_condition() {
  %0 = "emitc.constant"() <{value = 0 : index}> : () -> !emitc.size_t
  %1 = "emitc.constant"() <{value = 4 : i32}> : () -> i32
  // expected-error @+1 {{'emitc.conditional' op condition must be an i1}}
  %2 = "emitc.conditional"(%1, %0, %0) : (i32, !emitc.size_t, !emitc.size_t) -> !emitc.size_t
  return
}
