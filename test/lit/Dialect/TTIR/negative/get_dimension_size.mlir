// RUN: ttmlir-opt --split-input-file --verify-diagnostics %s

// expected-error @+3 {{'ttir.get_dimension_size' op requires a single operand}}
module {
  func.func @get_dimension_size(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>) -> tensor<1xi32> {
    %0 = "ttir.get_dimension_size"(%arg0, %arg1) <{dimension = 1 : i32}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<1xi32>
    return %0 : tensor<1xi32>
  }
}
// -----

// expected-error @+3 {{'ttir.get_dimension_size' op requires attribute 'dimension'}}
module {
  func.func @get_dimension_size(%arg0: tensor<32x64xf32>) -> tensor<1xi32> {
    %0 = "ttir.get_dimension_size"(%arg0) : (tensor<32x64xf32>) -> tensor<1xi32>
    return %0 : tensor<1xi32>
  }
}
// -----

// expected-error @+3 {{'ttir.get_dimension_size' op attribute 'dimension' failed to satisfy constraint}}
module {
  func.func @get_dimension_size(%arg0: tensor<32x64xf32>) -> tensor<1xi32> {
    %0 = "ttir.get_dimension_size"(%arg0) <{dimension = "oops"}> : (tensor<32x64xf32>) -> tensor<1xi32>
    return %0 : tensor<1xi32>
  }
}
