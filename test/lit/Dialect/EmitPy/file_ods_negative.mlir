// RUN: not ttmlir-opt --split-input-file %s 2>&1 | FileCheck %s
// emitpy.file's structural constraints, reported in MLIR's words before anything else.

module {
  // CHECK: error: expected '}' in attribute dictionary
  emitpy.file {
    func.func @f() { return }
  }
}

// -----

module {
  // CHECK: error: expected '{' to begin a region
  emitpy.file "lib"
}

// -----

module {
  // CHECK: error: 'emitpy.file' op region should have no arguments
  "emitpy.file"() ({
  ^bb0(%x: i32):
    func.func @f() { return }
  }) {id = "lib"} : () -> ()
}

// -----

module {
  // CHECK: error: 'emitpy.file' op attribute 'id' failed to satisfy constraint: An Attribute containing a string
  "emitpy.file"() ({
    func.func @f() { return }
  }) {id = 7 : i32} : () -> ()
}

// -----

module {
  // CHECK: error: 'emitpy.file' op requires attribute 'id'
  "emitpy.file"() ({
    func.func @f() { return }
  }) {file = "lib"} : () -> ()
}
