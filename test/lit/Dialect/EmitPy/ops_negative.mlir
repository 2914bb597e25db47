// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @bad_index(%arg0: !emitpy.opaque<"ttnn.Tensor">) {
  // expected-error @+1 {{'emitpy.call_opaque' op index argument is out of range}}
  emitpy.call_opaque "ttnn.relu"(%arg0) {args = [1 : index]} : (!emitpy.opaque<"ttnn.Tensor">) -> ()
  return
}

// -----

func.func @keywords(%arg0: !emitpy.opaque<"ttnn.Tensor">) {
  // expected-error @+1 {{'emitpy.call_opaque' op number of keyword arguments must match the number of arguments}}
  emitpy.call_opaque "ttnn.relu"(%arg0) {args = [0 : index], keyword_args = ["", "x"]} : (!emitpy.opaque<"ttnn.Tensor">) -> ()
  return
}

// -----

func.func @no_global(%arg0: !emitpy.opaque<"ttnn.Tensor">) {
  // expected-error @+1 {{'emitpy.assign_global' op 'missing' does not reference a valid emitpy.global}}
  emitpy.assign_global @missing = %arg0 : !emitpy.opaque<"ttnn.Tensor">
  return
}
