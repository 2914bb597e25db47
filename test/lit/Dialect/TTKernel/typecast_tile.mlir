// RUN: ttmlir-opt %s | FileCheck %s
// RUN: ttmlir-opt --convert-ttkernel-to-emitc %s | ttmlir-translate --ttkernel-to-cpp | FileCheck %s --check-prefix=CPP
// typecast_tile names the formats it casts between, as tt-metal's template arguments.

// CHECK: ttkernel.typecast_tile_init(<si32>, <bf16>) : () -> ()
// CHECK: ttkernel.typecast_tile(%{{.*}}, <si32>, <bf16>) : (index) -> ()
// CPP: #include "api/compute/eltwise_unary/typecast.h"
// CPP: typecast_tile_init<static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Int32), static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Float16_b)>();
// CPP: typecast_tile<static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Int32), static_cast<std::underlying_type_t<DataFormat>>(DataFormat::Float16_b)>(v{{[0-9]+}});
func.func @cast() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %i = arith.constant 0 : index
  "ttkernel.typecast_tile_init"() <{in_dtype = #ttcore.supportedDataTypes<si32>, out_dtype = #ttcore.supportedDataTypes<bf16>}> : () -> ()
  ttkernel.typecast_tile(%i, <si32>, <bf16>) : (index) -> ()
  return
}
