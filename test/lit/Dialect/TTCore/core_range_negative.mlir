// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+1 {{Start coordinates (2,0) must be less than or equal to end coordinates (1,5)}}
module attributes {test.range = #ttcore.core_range<(2, 0), (1, 5)>} {
}

// -----
// expected-error @+1 {{end coordinates (0,-3) must be non-negative}}
module attributes {test.range = #ttcore.core_range<(0, 0), (0, -3)>} {
}
