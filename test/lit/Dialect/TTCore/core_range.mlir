// RUN: ttmlir-opt --split-input-file %s | FileCheck %s

// A core range is two (y,x) corners, start first.
// CHECK: test.range = #ttcore.core_range<(0,0), (7,3)>
module attributes {test.range = #ttcore.core_range<(0, 0), (7, 3)>} {
}
