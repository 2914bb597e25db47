// RUN: ttmlir-translate --mlir-to-python %s | FileCheck %s
// A class with a base, a constructor keeping state, an instance method reading it and a class method.

// CHECK-LABEL: class Cache(collections.OrderedDict):
// CHECK-NEXT:     def __init__(self, size):
// CHECK-NEXT:         self.size = size
// CHECK:     def limit(self):
// CHECK-NEXT:         [[SIZE:var_[0-9]+]] = self.size
// CHECK-NEXT:         return [[SIZE]]
// CHECK:     @classmethod
// CHECK-NEXT:     def empty(cls):
module {
  emitpy.class @Cache(#emitpy.opaque<"collections.OrderedDict">) {
    func.func @__init__(%self: !emitpy.class<"Cache">, %n: !emitpy.opaque<"int"> {emitpy.name = "size"}) {
      emitpy.set_attr %self, "size", %n : (!emitpy.class<"Cache">, !emitpy.opaque<"int">)
      return
    }
    func.func @limit(%self: !emitpy.class<"Cache">) -> !emitpy.opaque<"int"> {
      %0 = emitpy.get_attr %self, "size" : (!emitpy.class<"Cache">) -> !emitpy.opaque<"int">
      return %0 : !emitpy.opaque<"int">
    }
    func.func @empty(%cls: !emitpy.opaque<"type">) attributes {emitpy.method_kind = "classmethod"} {
      return
    }
  }
}
