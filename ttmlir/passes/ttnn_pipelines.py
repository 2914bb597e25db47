"""`--ttir-to-ttnn-backend-pipeline`: the passes from TTIR to a TTNN module ready for translation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from ttmlir.passes import PassFailure
from ttmlir.passes.convert_ttir_to_ttnn import ConvertTTIRToTTNNPass
from ttmlir.passes.cpu_hoist import TTIRCPUHoistTransformPass
from ttmlir.passes.register_device import RegisterDevicePass
from ttmlir.passes.ttnn_deallocate import TTNNDeallocatePass
from ttmlir.passes.ttnn_layout import TTNNLayoutPass


@dataclass(frozen=True)
class TTIRToTTNNBackendPipeline(RegisterDevicePass):
    """The full TTIR → TTNN backend: device module, CPU hoisting, fusing, conversion, layouts, workarounds.

    Runs mark-functions-as-forward, wrap-device-module, register-device, resolve-composites,
    propagate-weight-dtype, cpu-hoist,
    element-type-normalization,
    ttir-to-ttir-decomposition, canonicalize, implicit-broadcast-fold, fusing, flatten-sliding-window, convert,
    ttnn-decomposition, layout, workaround, weight-dtype-conversion, set-compute-kernel-config (the compute-cfg-* options), canonicalize, prepare-conv3d-weights, decompose-layouts, canonicalize,
    deallocate."""

    name: ClassVar[str] = "ttir-to-ttnn-backend-pipeline"
    enable_fusing_pass: bool = True
    enable_implicit_broadcast_folding_pass: bool = True
    enable_ttnn_decomposition_pass: bool = True
    # the optimizer: level 1 turns it on with layouts left in DRAM, level 2 adds the memory-layout analysis (L1)
    optimization_level: int = 0
    enable_optimizer: bool = False
    memory_layout_analysis_enabled: str = ""  # unset: as the optimization level says
    max_legal_layouts: int = 64
    override_output_layout: str = ""
    override_conv2d_config: str = ""
    tensor_l1_usage_cap: str = "0.95"
    enable_decision_trace: bool = False
    decision_trace_dir: str = "ttrt-artifacts/decision_trace"
    # what this build lacks is refused when asked for, not ignored: its default is what it does
    enable_const_eval: bool = False
    enable_cpu_hoisted_const_eval: bool = False
    enable_trace: bool = False
    # defaults for every op's compute_config (ttnn-set-compute-kernel-config): upstream's at optimization level 0
    compute_cfg_math_fidelity: str = "hifi4"
    compute_cfg_math_approx_mode: str | None = None
    compute_cfg_fp32_dest_acc_en: str | None = "true"
    compute_cfg_packer_l1_acc: str | None = None
    compute_cfg_dst_full_sync_en: str | None = None
    # matmul/linear weights (parameters, constants) converted to bfp_bf8 or bfp_bf4 (ttnn-weight-dtype-conversion);
    # per-argument `ttcore.weight_dtype` annotations apply whatever this says
    experimental_weight_dtype: str = "none"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.optimization_level not in (0, 1, 2):
            raise PassFailure(module, f"optimization-level must be 0, 1 or 2, got {self.optimization_level}")
        if self.memory_layout_analysis_enabled not in ("", "true", "false", "1", "0"):
            raise PassFailure(module, f"invalid boolean '{self.memory_layout_analysis_enabled}' for "
                                      "memory-layout-analysis-enabled")
        optimizer = self.enable_optimizer or self.optimization_level >= 1
        memory_layout = (self.memory_layout_analysis_enabled in ("true", "1") if self.memory_layout_analysis_enabled
                         else self.optimization_level >= 2) and optimizer
        lacking = [("enable-const-eval", self.enable_const_eval, "const-eval (constant subgraphs hoisted into "
                                                                 "functions run once)"),
                   ("enable-cpu-hoisted-const-eval", self.enable_cpu_hoisted_const_eval, "const-eval hoisted to the CPU"),
                   ("enable-trace", self.enable_trace, "trace capture")]
        for option, asked, feature in lacking:
            if asked:
                raise PassFailure(module, f"{feature} is not supported by this build; drop '{option}' or set it "
                                          "to its default")
        from ttmlir.passes.element_type_normalization import ElementTypeNormalizationPass
        from ttmlir.passes.flatten_sliding_window import TTIRFlattenSlidingWindowPass
        from ttmlir.passes.ttir_to_ttir_decomposition import TTIRToTTIRDecompositionPass
        from ttmlir.passes.implicit_broadcast_fold import TTIRImplicitBroadcastFoldPass
        from ttmlir.passes.ttnn_decomposition import TTNNDecompositionPass
        from ttmlir.passes.mark_functions_as_forward import TTCoreMarkFunctionsAsForwardPass
        from ttmlir.passes.register_device import WrapDeviceModulePass
        from ttmlir.passes.resolve_composites import TTNNResolveCompositesPass
        from ttmlir.passes.ttir_fusing import TTIRFusingPass
        from ttmlir.passes.ttnn_decompose_layouts import TTNNDecomposeLayoutsPass
        from ttmlir.passes.ttnn_workarounds import TTNNWorkaroundPass
        from ttmlir.passes.ttnn_set_compute_kernel_config import TTNNSetComputeKernelConfigPass
        from ttmlir.passes.ttnn_prepare_conv3d_weights import TTNNPrepareConv3dWeightsPass
        from xdsl.transforms.canonicalize import CanonicalizePass
        from ttmlir.passes.ttir_propagate_weight_dtype import TTIRPropagateWeightDtypePass
        from ttmlir.passes.ttnn_weight_dtype_conversion import TTNNWeightDtypeConversionPass

        TTCoreMarkFunctionsAsForwardPass().apply(ctx, module)
        WrapDeviceModulePass().apply(ctx, module)
        super().apply(ctx, module)
        fusing = (TTIRFusingPass(),) if self.enable_fusing_pass else ()
        compute_config = TTNNSetComputeKernelConfigPass(
            self.compute_cfg_math_fidelity, self.compute_cfg_math_approx_mode, self.compute_cfg_fp32_dest_acc_en,
            self.compute_cfg_packer_l1_acc, self.compute_cfg_dst_full_sync_en)
        folding = (TTIRImplicitBroadcastFoldPass(),) if self.enable_implicit_broadcast_folding_pass else ()
        decomposition = (TTNNDecompositionPass(),) if self.enable_ttnn_decomposition_pass else ()
        for stage in (TTNNResolveCompositesPass(), TTIRPropagateWeightDtypePass(), TTIRCPUHoistTransformPass(), ElementTypeNormalizationPass(), TTIRToTTIRDecompositionPass(),
                      CanonicalizePass(), *folding, *fusing, TTIRFlattenSlidingWindowPass(), ConvertTTIRToTTNNPass(), *decomposition, TTNNLayoutPass(), TTNNWorkaroundPass(),
                      TTNNWeightDtypeConversionPass(self.experimental_weight_dtype), compute_config, CanonicalizePass(),
                      *self._optimizer(memory_layout), TTNNPrepareConv3dWeightsPass(), TTNNDecomposeLayoutsPass(),
                      CanonicalizePass(), TTNNDeallocatePass()):
            stage.apply(ctx, module)

    def _optimizer(self, memory_layout: bool) -> tuple:
        if not memory_layout and not self.override_output_layout and not self.override_conv2d_config:
            return ()
        from ttmlir.passes.ttnn_greedy_l1_spill_management import TTNNGreedyL1SpillManagementPass
        from ttmlir.passes.ttnn_greedy_memory_layout_propagation import TTNNGreedyMemoryLayoutPropagationPass

        trace = {"enable_decision_trace": self.enable_decision_trace, "decision_trace_dir": self.decision_trace_dir,
                 "tensor_l1_usage_cap": self.tensor_l1_usage_cap}
        # without the memory-layout analysis only the overridden results move (no other candidate than DRAM)
        return (TTNNGreedyMemoryLayoutPropagationPass(max_legal_layouts=self.max_legal_layouts if memory_layout else 0,
                                                      override_output_layout=self.override_output_layout,
                                                      override_conv2d_config=self.override_conv2d_config, **trace),
                TTNNGreedyL1SpillManagementPass(**trace))
