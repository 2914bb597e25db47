// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s -o %t.mlir
// RUN: ttmlir-translate --ttnn-to-flatbuffer %t.mlir -o %t.ttnn
// RUN: ttrt read --section all --result-file %t.json %t.ttnn | FileCheck %s
// Binary ops to a flatbuffer: every op in one module, a program each; the binary's tables name each program's inputs,
// outputs and ops.

// CHECK-LABEL: "inputs": [
// CHECK: "program": "add"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "atan2"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "bitwise_and"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "bitwise_or"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "bitwise_xor"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "div"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "eq"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "ge"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "gt"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "le"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_and"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_left_shift"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_or"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_right_shift"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_xor"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "lt"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "maximum"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "minimum"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "multiply"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "ne"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "pow"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "remainder"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "subtract"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "shape": [1, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "outputs": [
// CHECK: "program": "add"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "atan2"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "bitwise_and"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "bitwise_or"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "bitwise_xor"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "div"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "eq"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "ge"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "gt"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "le"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_and"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_left_shift"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_or"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_right_shift"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "si32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "logical_xor"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "lt"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "maximum"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "minimum"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "multiply"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "ne"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "pow"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "remainder"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK: "program": "subtract"
// CHECK: "shape": [64, 128]
// CHECK: "data_type": "f32"
// CHECK: "layout": "tile"
// CHECK: "buffer_type": "dram"
// CHECK-LABEL: "op_stats": [
// CHECK: "program": "add"
// CHECK: "ttnn.add": 1
// CHECK: "program": "atan2"
// CHECK: "ttnn.atan2": 1
// CHECK: "program": "bitwise_and"
// CHECK: "ttnn.bitwise_and": 1
// CHECK: "program": "bitwise_or"
// CHECK: "ttnn.bitwise_or": 1
// CHECK: "program": "bitwise_xor"
// CHECK: "ttnn.bitwise_xor": 1
// CHECK: "program": "div"
// CHECK: "ttnn.divide": 1
// CHECK: "program": "eq"
// CHECK: "ttnn.eq": 1
// CHECK: "program": "ge"
// CHECK: "ttnn.ge": 1
// CHECK: "program": "gt"
// CHECK: "ttnn.gt": 1
// CHECK: "program": "le"
// CHECK: "ttnn.ge": 1
// CHECK: "program": "logical_and"
// CHECK: "ttnn.logical_and": 1
// CHECK: "program": "logical_left_shift"
// CHECK: "ttnn.logical_left_shift": 1
// CHECK: "program": "logical_or"
// CHECK: "ttnn.logical_or": 1
// CHECK: "program": "logical_right_shift"
// CHECK: "ttnn.logical_right_shift": 1
// CHECK: "program": "logical_xor"
// CHECK: "ttnn.logical_xor": 1
// CHECK: "program": "lt"
// CHECK: "ttnn.gt": 1
// CHECK: "program": "maximum"
// CHECK: "ttnn.maximum": 1
// CHECK: "program": "minimum"
// CHECK: "ttnn.minimum": 1
// CHECK: "program": "multiply"
// CHECK: "ttnn.multiply": 1
// CHECK: "program": "ne"
// CHECK: "ttnn.ne": 1
// CHECK: "program": "pow"
// CHECK: "ttnn.pow_tensor": 1
// CHECK: "program": "remainder"
// CHECK: "ttnn.remainder": 1
// CHECK: "program": "subtract"
// CHECK: "ttnn.subtract": 1
// CHECK-LABEL: "mesh_shape": [1, 1]
module {
  func.func @add(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.add"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @atan2(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.atan2"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @bitwise_and(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.bitwise_and"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
  func.func @bitwise_or(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.bitwise_or"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
  func.func @bitwise_xor(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.bitwise_xor"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
  func.func @div(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.div"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @eq(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.eq"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @ge(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.ge"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @gt(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.gt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @le(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.le"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @logical_and(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.logical_and"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @logical_left_shift(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.logical_left_shift"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
  func.func @logical_or(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.logical_or"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @logical_right_shift(%arg0: tensor<64x128xsi32>, %arg1: tensor<1x128xsi32>) -> tensor<64x128xsi32> {
    %0 = "ttir.logical_right_shift"(%arg0, %arg1) : (tensor<64x128xsi32>, tensor<1x128xsi32>) -> tensor<64x128xsi32>
    return %0 : tensor<64x128xsi32>
  }
  func.func @logical_xor(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.logical_xor"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @lt(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.lt"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @maximum(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.maximum"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @minimum(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.minimum"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @multiply(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.multiply"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @ne(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.ne"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @pow(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.pow"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @remainder(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.remainder"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func @subtract(%arg0: tensor<64x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.subtract"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
