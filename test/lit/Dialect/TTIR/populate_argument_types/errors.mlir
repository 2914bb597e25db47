// RUN: ttmlir-opt --tt-populate-argument-types="argument-types=step=input,parameter" %s | FileCheck %s
// RUN: not ttmlir-opt --tt-populate-argument-types="argument-types=step=input" %s 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not ttmlir-opt --tt-populate-argument-types="argument-types=absent=input" %s 2>&1 | FileCheck %s --check-prefix=MISSING
// A map names each function's argument types; a wrong count or an unknown function is an error.

// CHECK: func.func @step(%arg0: tensor<8xf32> {ttcore.argument_type = #ttcore.argument_type<input>}, %arg1: tensor<8xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>})
// COUNT: error: Did not provide the correct number of argument types for function: "step". Expected: 2 arguments, got: 1 arguments
// MISSING: error: Function: "absent" was provided in the argument types map, however it was not found in module!
func.func @step(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "ttir.add"(%arg0, %arg1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
