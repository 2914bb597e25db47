// RUN: ttmlir-opt --split-input-file %s | FileCheck %s
// RUN: ttmlir-opt --split-input-file %s | ttmlir-translate --mlir-to-python | FileCheck %s --check-prefix=PY

// CHECK: emitpy.import import "numpy" as "np"
// CHECK: emitpy.import from "os" import "path", "sep" as "s"
// CHECK: emitpy.global @cache = #emitpy.opaque<"None">
// CHECK: emitpy.literal "3" : index
// CHECK: emitpy.subscript %arg0[%0] : (!emitpy.opaque<"[ttnn.Tensor]">, index) -> !emitpy.opaque<"ttnn.Tensor">
// CHECK: emitpy.call_opaque "ttnn.relu"(%1) {args = [0 : index, #emitpy.opaque<"None">], keyword_args = ["", "memory_config"]}
// CHECK: emitpy.global_statement @cache : !emitpy.opaque<"ttnn.Tensor">
// CHECK: emitpy.assign_global @cache = %2 : !emitpy.opaque<"ttnn.Tensor">
// PY: import numpy as np
// PY: from os import path, sep as s
// PY: cache = None
// PY: def f(inputs):
// PY-NEXT: var_0 = inputs[3]
// PY-NEXT: var_1 = ttnn.relu(var_0, memory_config=None)
// PY-NEXT: global cache
// PY-NEXT: cache = var_1
// PY-NEXT: return var_1
module {
  emitpy.import import "numpy" as "np"
  emitpy.import from "os" import "path", "sep" as "s"
  emitpy.global @cache = #emitpy.opaque<"None">
  func.func @f(%arg0: !emitpy.opaque<"[ttnn.Tensor]">) -> !emitpy.opaque<"ttnn.Tensor"> {
    %0 = emitpy.literal "3" : index
    %1 = emitpy.subscript %arg0[%0] : (!emitpy.opaque<"[ttnn.Tensor]">, index) -> !emitpy.opaque<"ttnn.Tensor">
    %2 = emitpy.call_opaque "ttnn.relu"(%1) {args = [0 : index, #emitpy.opaque<"None">], keyword_args = ["", "memory_config"]} : (!emitpy.opaque<"ttnn.Tensor">) -> !emitpy.opaque<"ttnn.Tensor">
    %3 = emitpy.global_statement @cache : !emitpy.opaque<"ttnn.Tensor">
    emitpy.assign_global @cache = %2 : !emitpy.opaque<"ttnn.Tensor">
    return %2 : !emitpy.opaque<"ttnn.Tensor">
  }
}
