// RUN: not ttmlir-opt %s 2>&1 | FileCheck %s
// An alias is defined once per file; a second definition is an error at its own line, even when the
// definitions sit before the module they are used in.

// CHECK: alias_redefinition.mlir:[[# @LINE + 2]]:1: error: redefinition of attribute alias id 'mem'
#mem = #ttnn.buffer_type<dram>
#mem = #ttnn.buffer_type<l1>
// CHECK-NOT: error
module {
}
