// RUN: ttmlir-opt %s -split-input-file -verify-diagnostics
// emitpy.class's methods: their kind, receiver and constructor, reported at the method.

module {
  emitpy.class @Two {
    // expected-error @+1 {{__init__ must be an instance method}}
    func.func @__init__(%self: !emitpy.class<"Two">) attributes {emitpy.method_kind = "staticmethod"} {
      return
    }
  }
}

// -----

module {
  emitpy.class @Named {
    // expected-error @+1 {{first argument must be named 'self' via emitpy.name}}
    func.func @run(%me: !emitpy.class<"Named"> {emitpy.name = "me"}) {
      return
    }
  }
}

// -----

module {
  // expected-error @+1 {{base_classes must be symbol refs or #emitpy.opaque}}
  emitpy.class @Based("object") {
  }
}
