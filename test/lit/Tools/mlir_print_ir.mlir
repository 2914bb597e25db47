// RUN: ttmlir-opt --ttir-fusing --canonicalize --mlir-print-ir-before=canonicalize --mlir-print-ir-after=ttir-fusing %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline --mlir-print-ir-after-all %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: ttmlir-opt --ttir-to-ttnn-backend-pipeline --mlir-print-ir-before=ttir-to-ttnn-backend-pipeline %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not ttmlir-opt --mlir-print-ir-after=no-such-pass %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: ttmlir-opt --mlir-disable-threading --ttir-fusing --mlir-print-ir-after=ttir-fusing %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=SERIAL

// The IR on stderr around the passes named, under MLIR's banner: the pass's name, its flag, then the module as
// it stands at that point (here after the fusing and before canonicalize makes the transpose a permute).
// NAMED:      // -----// IR Dump After TTIRFusing (ttir-fusing) //----- //
// NAMED-NEXT: module {
// NAMED:        "ttir.transpose"
// NAMED:      // -----// IR Dump Before Canonicalizer (canonicalize) //----- //
// NAMED-NEXT: module {
// NAMED:        "ttir.transpose"
// NAMED-NOT:  IR Dump

// MLIR's --mlir-disable-threading is taken (passes here run on one thread anyway).
// SERIAL:      // -----// IR Dump After TTIRFusing (ttir-fusing) //----- //
// SERIAL-NOT:  IR Dump

// After every pass: a pipeline shows its stages one by one (the TTIR ones, the conversion, the TTNN ones), and
// not the pipelines themselves (as in MLIR, a pipeline is its passes).
// ALL-NOT:    IR Dump After TTIRToTTNNBackendPipeline
// ALL:        // -----// IR Dump After TTIRFusing (ttir-fusing) //----- //
// ALL:        // -----// IR Dump After ConvertTTIRToTTNN (convert-ttir-to-ttnn) //----- //
// ALL:          "ttnn.relu"
// ALL:        // -----// IR Dump After TTNNLayout (ttnn-layout) //----- //
// ALL:        // -----// IR Dump After TTNNDeallocate (ttnn-deallocate) //----- //
// ALL-NOT:    IR Dump After TTIRToTTNN

// Named, a pipeline is printed around as a whole.
// PIPELINE:      // -----// IR Dump Before TTIRToTTNNBackendPipeline (ttir-to-ttnn-backend-pipeline) //----- //
// PIPELINE-NEXT: module {
// PIPELINE-NOT:  IR Dump

// BAD: ttmlir-opt: for the --mlir-print-ir-after option: Cannot find option named 'no-such-pass'!

func.func @transposed(%a: tensor<32x64xf32>) -> tensor<64x32xf32> {
  %0 = "ttir.transpose"(%a) <{dim0 = 0 : si32, dim1 = 1 : si32}> : (tensor<32x64xf32>) -> tensor<64x32xf32>
  %1 = "ttir.relu"(%0) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %1 : tensor<64x32xf32>
}
