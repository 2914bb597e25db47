// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

func.func @undefined_value(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %0 = "ttir.abs"(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_op(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unregistered operation 'ttir.frobnicate' found in dialect ('ttir')}}
  %0 = "ttir.frobnicate"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @undefined_alias(%arg0: tensor<4xf32, #nowhere>) -> tensor<4xf32> {
  // expected-error @-1 {{undefined symbol alias '#nowhere'}}
  return %arg0 : tensor<4xf32>
}

// -----

func.func @bad_enum(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{Expected `sum`}}
  %0 = "ttir.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<average>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A function body must end in its terminator: without `return` there is no result to hand back.
func.func @no_return(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{block with no terminator, has %0 = "ttir.abs"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>}}
  %0 = "ttir.abs"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
}
