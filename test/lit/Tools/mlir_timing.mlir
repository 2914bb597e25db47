// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline --mlir-timing %s -o %t.mlir 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TREE
// RUN: ttmlir-opt --split-input-file --ttir-fusing --canonicalize -mlir-timing -mlir-timing-display=list %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: ttmlir-opt --ttir-fusing %s -o %t.mlir 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: not ttmlir-opt --mlir-timing --mlir-timing-display=flat %s 2>&1 | FileCheck %s --check-prefix=BAD

// --mlir-timing: after the run, MLIR's execution time report on stderr. In tree mode a pipeline's passes are
// nested (two spaces a level) under it, in the order they ran, then what no timer accounts for and the total.
// TREE:      ===-------------------------------------------------------------------------===
// TREE-NEXT: {{^}}                         ... Execution time report ...
// TREE-NEXT: ===-------------------------------------------------------------------------===
// TREE-NEXT: {{^}}  Total Execution Time: {{[0-9]+\.[0-9]+}} seconds
// TREE-EMPTY:
// TREE-NEXT: {{^}}  ----Wall Time----  ----Name----
// TREE-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}  Parser
// TREE-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}  ttir-to-ttnn-backend-pipeline
// TREE-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}    ttir-to-ttnn-common-pipeline
// TREE-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}      ttcore-mark-functions-as-forward
// TREE:      {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}      canonicalize
// TREE:      {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}      ttir-fusing
// TREE:      {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}      convert-ttir-to-ttnn
// TREE:      {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}      ttnn-deallocate
// TREE-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}    ttnn-common-to-runtime-pipeline
// TREE-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}  Verifier
// TREE-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}  Output
// TREE-NEXT: {{^ +-?[0-9]+\.[0-9]+ \( *-?[0-9]+\.[0-9]%\)}}  Rest
// TREE-NEXT: {{^ +[0-9]+\.[0-9]+ \(100\.0%\)}}  Total
// TREE-NOT:  {{.}}

// In list mode every timer of a name is one row (the two pieces' parses, passes and prints added up), the
// slowest first.
// LIST:     ... Execution time report ...
// LIST:     ----Wall Time----  ----Name----
// LIST-DAG: {{\)}} Parser
// LIST-DAG: {{\)}} ttir-fusing
// LIST-DAG: {{\)}} canonicalize
// LIST-DAG: {{\)}} Verifier
// LIST-DAG: {{\)}} Output
// LIST:     {{\)}} Rest
// LIST-NEXT: (100.0%) Total
// LIST-NOT: Parser

// QUIET-NOT: Execution time report

// BAD: ttmlir-opt: for the --mlir-timing-display option: Cannot find option named 'flat'!

func.func @main(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = "ttir.add"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %1 = "ttir.relu"(%0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %1 : tensor<64x128xf32>
}

// -----

func.func @other(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = "ttir.relu"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
