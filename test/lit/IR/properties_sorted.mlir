// RUN: ttmlir-opt %s | FileCheck %s
// Property dictionaries print sorted by name, as MLIR's DictionaryAttr does.

// CHECK: <{all_gather_dim = 3 : si32, cluster_axis = 1 : ui32}>
module {
  func.func @ag(%arg0: tensor<1x1x32x128xf32>) -> tensor<1x1x32x512xf32> {
    %0 = "ttir.all_gather"(%arg0) <{cluster_axis = 1 : ui32, all_gather_dim = 3 : si32}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x512xf32>
    return %0 : tensor<1x1x32x512xf32>
  }
}
