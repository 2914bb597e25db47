// RUN: ttmlir-opt %s | ttmlir-opt | FileCheck %s

// A dictionary passes through functions; values go in and come out under string or index keys.
// CHECK-LABEL: func.func @cache
// CHECK: ttcore.set_key_value %{{.*}}["weights"] = %{{.*}}, %{{.*}} : !ttcore.dict, tensor<32x32xbf16>, tensor<64xf32>
// CHECK: %{{.*}}:2 = ttcore.get_key_value %{{.*}}["weights"] : (!ttcore.dict) -> (tensor<32x32xbf16>, tensor<64xf32>)
// CHECK: ttcore.get_key_value %{{.*}}[7 : index] : (!ttcore.dict) -> tensor<64xf32>
// CHECK: return %{{.*}} : !ttcore.dict
module {
  func.func @cache(%d: !ttcore.dict, %w: tensor<32x32xbf16>, %b: tensor<64xf32>) -> !ttcore.dict {
    ttcore.set_key_value %d["weights"] = %w, %b : !ttcore.dict, tensor<32x32xbf16>, tensor<64xf32>
    %0:2 = ttcore.get_key_value %d["weights"] : (!ttcore.dict) -> (tensor<32x32xbf16>, tensor<64xf32>)
    %1 = ttcore.get_key_value %d[7 : index] : (!ttcore.dict) -> tensor<64xf32>
    return %d : !ttcore.dict
  }
}
