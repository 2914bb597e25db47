"""The TTNN pipelines: `--ttir-to-ttnn-common-pipeline` (TTIR to TTNN), then one back door:
`--ttnn-common-to-runtime-pipeline` (the flatbuffer), `--ttnn-common-to-emitc-pipeline` (C++),
`--ttnn-common-to-emitpy-pipeline` (Python); `--ttir-to-ttnn-backend-pipeline`, `--ttir-to-emitc-pipeline` and
`--ttir-to-emitpy-pipeline` run the common part and one back door."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.errors import PassFailure, PassWarning
from ttmlir.conversion.ttir_to_ttnn.convert_ttir_to_ttnn import ConvertTTIRToTTNNPass
from ttmlir.transforms.ttir.cpu_hoist_manually_tagged import CPUHoistManuallyTaggedPass
from ttmlir.transforms.ttcore.register_device import RegisterDevicePass
from ttmlir.transforms.ttnn.ttnn_deallocate import TTNNDeallocatePass
from ttmlir.transforms.ttnn.ttnn_layout import TTNNLayoutPass
from ttmlir.timing import run_pass, scope


@dataclass(frozen=True)
class TTIRToTTNNCommonPipeline(RegisterDevicePass):
    """TTIR → TTNN: device module, CPU hoisting, fusing, conversion, layouts, workarounds, deallocation.

    Runs mark-functions-as-forward, wrap-device-module, register-device, resolve-composites,
    infer-kv-cache-argument-types, propagate-weight-dtype, cpu-hoist,
    element-type-normalization, quant-dequant-conversion (enable-quant-dequant-conversion-pass),
    ttir-to-ttir-decomposition, canonicalize, implicit-broadcast-fold, fusing, flatten-sliding-window,
    explicate-tms + erase-inverse-ops + implicit-broadcast-fold + fusing (enable-erase-inverse-ops-pass), convert,
    ttnn-fusing, ttnn-decomposition, layout, workaround + allocate-distributed-op-buffers (unless disable-workarounds), row-major-reshapes, weight-dtype-conversion, kv-cache-dtype-conversion, set-compute-kernel-config (the compute-cfg-* options), create-d2m-subgraphs (enable-create-d2m-subgraphs), canonicalize,
    configure-ccl-ops, the optimizer (optimization-level), prepare-conv3d-weights, through-d2m + collaspe-d2m + canonicalize (enable-create-d2m-subgraphs),
    allocate-distributed-op-semaphores, trace-hoist-transform (enable-trace), decompose-layouts, canonicalize,
    deallocate, collect-perf-metrics (ttnn-perf-metrics-enabled)."""

    name: ClassVar[str] = "ttir-to-ttnn-common-pipeline"
    enable_fusing_pass: bool = True
    # dequantizes moved below the ops that can run on quantized values (ttir-quant-dequant-conversion)
    enable_quant_dequant_conversion_pass: bool = True
    enable_implicit_broadcast_folding_pass: bool = True
    # reshapes and permutes moved until inverse pairs cancel, then broadcasts folded and fused again (upstream's)
    enable_erase_inverse_ops_pass: bool = True
    enable_ttnn_decomposition_pass: bool = True
    enable_permute_matmul_fusion: bool = False
    # per-channel scales and batch norms after a conv2d fused into its weights: unset, from optimization level 1
    enable_fusing_conv2d_with_multiply_pattern: str = ""
    # the optimizer: level 1 turns it on with layouts left in DRAM, level 2 adds the memory-layout analysis (L1)
    optimization_level: int = 0
    enable_optimizer: bool = False
    memory_layout_analysis_enabled: str = ""  # unset: as the optimization level says
    max_legal_layouts: int = 64
    override_output_layout: str = ""
    override_conv2d_config: str = ""
    override_conv3d_config: str = ""
    tensor_l1_usage_cap: str = "0.95"
    enable_decision_trace: bool = False
    decision_trace_dir: str = "ttrt-artifacts/decision_trace"
    # per op, the configurations the validation after the optimizer tries before it gives up (0: no limit)
    max_fallback_attempts: int = 10000
    # the workaround pass skipped: with the optimizer on, the validation after it still converts what kernels
    # cannot read (the same table); its rewrites of ops the kernels cannot run as written are then not applied
    disable_workarounds: bool = False
    # upstream's defaults: parameter/constant-only subgraphs computed once, on the host
    enable_const_eval: bool = True
    enable_cpu_hoisted_const_eval: bool = True
    enable_const_eval_inputs_to_system_memory: bool = True
    enable_trace: bool = False
    # the JSON report of --ttnn-collect-perf-metrics after the pipeline (an empty file name: perf_metrics/<module>_...)
    ttnn_perf_metrics_enabled: bool = False
    ttnn_perf_metrics_output_file: str = ""
    ttnn_perf_metrics_verbose_output_enabled: bool = True
    # defaults for every op's compute_config (ttnn-set-compute-kernel-config). Left unset, the fidelity is what the
    # optimization level says, as upstream resolves it: hifi4 at level 0, above it undefined (TTNN's own default per
    # op: hifi2 for bf16 products, lofi for block floats, hifi4 for f32 ones)
    compute_cfg_math_fidelity: str = ""
    compute_cfg_math_approx_mode: str | None = None
    compute_cfg_fp32_dest_acc_en: str | None = "true"
    compute_cfg_packer_l1_acc: str | None = None
    compute_cfg_dst_full_sync_en: str | None = None
    # matmul/linear weights (parameters, constants) converted to bfp_bf8 or bfp_bf4 (ttnn-weight-dtype-conversion);
    # per-argument `ttcore.weight_dtype` annotations apply whatever this says
    experimental_weight_dtype: str = "none"
    # KV caches (arguments cache ops write into) kept in bfp_bf8 or bfp_bf4 (ttnn-kv-cache-dtype-conversion)
    experimental_kv_cache_dtype: str = "none"
    # composites to fused TTNN ops (ttnn-resolve-composites): auto validates them when the optimizer runs, else inlines
    composite_resolution: str = "auto"
    # chains of elementwise TTNN ops compiled through D2M into ttnn.generic programs (needs the optimizer, which it
    # turns on); their generics fused into one program per chain unless enable-d2m-elementwise-fusion=false
    enable_create_d2m_subgraphs: bool = False
    enable_d2m_elementwise_fusion: str = ""

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.optimization_level not in (0, 1, 2):
            raise PassFailure(module, f"optimization-level must be 0, 1 or 2, got {self.optimization_level}")
        def by_level(option: str, value: str, level: int) -> bool:
            """A boolean option left unset means what the optimization level says."""
            if value not in ("", "true", "false", "1", "0"):
                raise PassFailure(module, f"invalid boolean '{value}' for {option}")
            return value in ("true", "1") if value else self.optimization_level >= level

        optimizer = self.enable_optimizer or self.optimization_level >= 1
        d2m_fusion = by_level("enable-d2m-elementwise-fusion", self.enable_d2m_elementwise_fusion, 0)
        if self.enable_d2m_elementwise_fusion in ("true", "1") and not self.enable_create_d2m_subgraphs:
            raise PassFailure(module, "enable-d2m-elementwise-fusion=true requires enable-create-d2m-subgraphs to be "
                                      "enabled.")
        if self.enable_create_d2m_subgraphs and not optimizer:
            warnings.warn(PassWarning(module, "D2M subgraph creation pass only supported with Optimizer enabled. "
                                              "Automatically enabling Optimizer as a dependency."))
            optimizer = True
        memory_layout = by_level("memory-layout-analysis-enabled", self.memory_layout_analysis_enabled, 2) and optimizer
        conv_scaling = by_level("enable-fusing-conv2d-with-multiply-pattern",
                                self.enable_fusing_conv2d_with_multiply_pattern, 1)
        from ttmlir.transforms.ttir.const_eval_hoist_transform import ConstEvalHoistTransformPass
        from ttmlir.transforms.ttir.cpu_hoist_const_eval import CPUHoistConstEvalTransformPass
        from ttmlir.transforms.ttnn.ttnn_force_const_eval_to_system_memory import TTNNConstEvalInputsToSystemMemoryPass
        from ttmlir.transforms.ttnn.ttnn_prepare_conv2d_weights_and_bias import TTNNPrepareConv2dWeightsAndBiasPass
        from ttmlir.transforms.ttir.ttir_element_type_normalization import ElementTypeNormalizationPass
        from ttmlir.transforms.ttir.ttir_flatten_sliding_window import TTIRFlattenSlidingWindowPass
        from ttmlir.transforms.ttir.ttir_to_ttir_decomposition import TTIRToTTIRDecompositionPass
        from ttmlir.transforms.ttir.ttir_implicit_broadcast_fold import TTIRImplicitBroadcastFoldPass
        from ttmlir.transforms.ttnn.ttnn_decomposition import TTNNDecompositionPass
        from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import TTCoreMarkFunctionsAsForwardPass
        from ttmlir.transforms.ttcore.ttcore_optimization_barrier_fold import TTCoreOptimizationBarrierFoldPass
        from ttmlir.transforms.ttcore.register_device import WrapDeviceModulePass
        from ttmlir.transforms.ttnn.ttnn_resolve_composites import TTNNResolveCompositesPass
        from ttmlir.transforms.ttir.ttir_fusing import TTIRFusingPass
        from ttmlir.transforms.ttnn.ttnn_decompose_layouts import TTNNDecomposeLayoutsPass
        from ttmlir.transforms.ttnn.ttnn_workaround import TTNNWorkaroundPass
        from ttmlir.transforms.ttnn.ttnn_set_compute_kernel_config import TTNNSetComputeKernelConfigPass
        from ttmlir.transforms.ttnn.ttnn_prepare_conv3d_weights import TTNNPrepareConv3dWeightsPass
        from ttmlir.dialects.canonicalize import CanonicalizePass
        from ttmlir.transforms.ttir.ttir_propagate_weight_dtype import TTIRPropagateWeightDtypePass
        from ttmlir.transforms.ttnn.ttnn_weight_dtype_conversion import TTNNWeightDtypeConversionPass
        from ttmlir.transforms.ttir.ttir_infer_kv_cache_argument_types import TTIRInferKVCacheArgumentTypesPass
        from ttmlir.transforms.ttnn.ttnn_trace_hoist_transform import TTNNTraceHoistTransformPass
        from ttmlir.transforms.ttnn.ttnn_kv_cache_dtype_conversion import TTNNKVCacheDtypeConversionPass

        run_pass(TTCoreMarkFunctionsAsForwardPass(), ctx, module)
        run_pass(WrapDeviceModulePass(), ctx, module)
        with scope(RegisterDevicePass.name):
            super().apply(ctx, module)
        from ttmlir.transforms.ttnn.ttnn_fusing import TTNNFusingPass
        fusing = (TTIRFusingPass(self.enable_permute_matmul_fusion, conv_scaling),) if self.enable_fusing_pass else ()
        # RoPE: upstream finds it in TTIR (a composite its op model promotes); ours is found and checked in TTNN
        ttnn_fusing = ((TTNNFusingPass(enable_op_constraints=optimizer, enable_rope_fusion=optimizer),)
                       if self.enable_fusing_pass else ())
        fidelity = self.compute_cfg_math_fidelity or ("hifi4" if self.optimization_level == 0 else "undefined")
        compute_config = TTNNSetComputeKernelConfigPass(
            fidelity, self.compute_cfg_math_approx_mode, self.compute_cfg_fp32_dest_acc_en,
            self.compute_cfg_packer_l1_acc, self.compute_cfg_dst_full_sync_en)
        # CSE first, as upstream: equal constants become one const-eval input, not one function each
        const_eval = ((ValueSemanticsCSEPass(), ConstEvalHoistTransformPass()) if self.enable_const_eval
                      else ()) + (
            (CPUHoistConstEvalTransformPass(),) if self.enable_const_eval and self.enable_cpu_hoisted_const_eval else ())
        folding = (TTIRImplicitBroadcastFoldPass(),) if self.enable_implicit_broadcast_folding_pass else ()
        from ttmlir.transforms.ttir.ttir_erase_inverse_ops import TTIREraseInverseOpsPass
        from ttmlir.transforms.ttir.ttir_explicate_tms import TTIRExplicateTMsPass
        # explicit broadcasts first, so TMs commute through what elementwise ops would broadcast implicitly
        erase_inverse = ((TTIRExplicateTMsPass(), TTIREraseInverseOpsPass(), *folding, *fusing)
                         if self.enable_erase_inverse_ops_pass else ())
        decomposition = (TTNNDecompositionPass(optimizer),) if self.enable_ttnn_decomposition_pass else ()
        # as upstream, const-eval again on TTNN ops: before the optimizer (what workarounds made of parameters) and
        # after it (the conv weights it prepares)
        ttnn_const_eval = (ConstEvalHoistTransformPass(),) if self.enable_const_eval else ()
        prepare_conv2d = (TTNNPrepareConv2dWeightsAndBiasPass(),) if optimizer else ()
        # after the last layout decision: the weights const-eval reads stay on the host
        inputs_to_host = (TTNNConstEvalInputsToSystemMemoryPass(),) if (
            self.enable_const_eval and self.enable_const_eval_inputs_to_system_memory) else ()
        # before the layouts decompose: it moves host-fed inputs to the host as one to_tensor_spec each
        hoist_trace = (TTNNTraceHoistTransformPass(),) if self.enable_trace else ()
        from ttmlir.transforms.ttnn.ttnn_row_major_reshapes import TTNNRowMajorReshapesPass
        from ttmlir.transforms.ttnn.ttnn_configure_ccl_ops import TTNNConfigureCCLOpsPass
        from ttmlir.transforms.ttnn.ttnn_allocate_distributed_op_buffers import TTNNAllocateDistributedOpBuffersPass
        from ttmlir.transforms.ttnn.ttnn_allocate_distributed_op_semaphores import TTNNAllocateDistributedOpSemaphoresPass
        # distributed ops' scratch buffers bound before the optimizer (they take L1), their semaphores after it (on
        # the cores their inputs end up on)
        workarounds = () if self.disable_workarounds else (TTNNWorkaroundPass(), TTNNAllocateDistributedOpBuffersPass())
        resolution = self.composite_resolution
        if resolution == "auto":
            resolution = "validate" if optimizer else "inline"
        from ttmlir.transforms.ttir.ttir_fold_full_to_scalar import TTIRFoldFullToScalarPass
        create_d2m, through_d2m = (), ()
        if self.enable_create_d2m_subgraphs:
            from ttmlir.pipelines.ttmetal import TTNNThroughD2MPipeline
            from ttmlir.transforms.ttnn.ttnn_collaspe_d2m import TTNNCollaspeD2MPass
            from ttmlir.transforms.ttnn.ttnn_create_d2m_subgraphs import TTNNCreateD2MSubgraphsPass
            create_d2m = (TTNNCreateD2MSubgraphsPass(),)
            through_d2m = (TTNNThroughD2MPipeline(d2m_fusion), TTNNCollaspeD2MPass(), CanonicalizePass())
        from ttmlir.transforms.ttir.ttir_quant_dequant_conversion import TTIRQuantDequantConversionPass
        # before the decomposition unrolls quantize and dequantize
        quant_dequant = (TTIRQuantDequantConversionPass(),) if self.enable_quant_dequant_conversion_pass else ()
        for stage in (TTNNResolveCompositesPass(resolution), TTIRInferKVCacheArgumentTypesPass(), TTIRPropagateWeightDtypePass(), CPUHoistManuallyTaggedPass(), ElementTypeNormalizationPass(), *quant_dequant, TTIRToTTIRDecompositionPass(),
                      CanonicalizePass(), *folding, *fusing, TTIRFlattenSlidingWindowPass(), *erase_inverse, TTIRFoldFullToScalarPass(), *const_eval, ConvertTTIRToTTNNPass(), *ttnn_fusing, *decomposition, TTNNLayoutPass(), *workarounds, TTNNRowMajorReshapesPass(),
                      TTNNWeightDtypeConversionPass(self.experimental_weight_dtype),
                      TTNNKVCacheDtypeConversionPass(self.experimental_kv_cache_dtype), compute_config, *create_d2m, CanonicalizePass(),
                      *ttnn_const_eval, TTNNConfigureCCLOpsPass(), *self._optimizer(optimizer, memory_layout), *prepare_conv2d, TTNNPrepareConv3dWeightsPass(),
                      *through_d2m, TTNNAllocateDistributedOpSemaphoresPass(), *ttnn_const_eval, CanonicalizePass(), *inputs_to_host, *hoist_trace, TTNNDecomposeLayoutsPass(),
                      CanonicalizePass(), TTCoreOptimizationBarrierFoldPass(), TTNNDeallocatePass()):
            run_pass(stage, ctx, module)
        if self.ttnn_perf_metrics_enabled:
            from ttmlir.transforms.ttnn.ttnn_collect_perf_metrics import TTNNCollectPerfMetricsPass
            run_pass(TTNNCollectPerfMetricsPass(self.ttnn_perf_metrics_output_file,
                                                self.ttnn_perf_metrics_verbose_output_enabled, self.enable_trace), ctx, module)

    def _optimizer(self, optimizer: bool, memory_layout: bool) -> tuple:
        if not (optimizer or self.override_output_layout or self.override_conv2d_config or self.override_conv3d_config):
            return ()
        from ttmlir.transforms.ttnn.optimizer.ttnn_greedy_l1_spill_management import TTNNGreedyL1SpillManagementPass
        from ttmlir.transforms.ttnn.optimizer.ttnn_greedy_memory_layout_propagation import TTNNGreedyMemoryLayoutPropagationPass

        trace = {"enable_decision_trace": self.enable_decision_trace, "decision_trace_dir": self.decision_trace_dir,
                 "tensor_l1_usage_cap": self.tensor_l1_usage_cap}
        # without the memory-layout analysis only the overridden results move (no other candidate than DRAM)
        from ttmlir.transforms.ttnn.optimizer.ttnn_operation_validation_and_fallback import TTNNOperationValidationAndFallbackPass

        # as upstream, every op checked against what its kernel accepts once the layouts are chosen
        validation = (TTNNOperationValidationAndFallbackPass(self.max_fallback_attempts),) if optimizer else ()
        from ttmlir.transforms.ttnn.optimizer.ttnn_split_runtime_weight_concat import TTNNSplitRuntimeWeightConcatPass

        from ttmlir.transforms.ttnn.ttnn_rm_layout_propagation import TTNNRowMajorLayoutPropagationPass

        # products of weights concatenated on every call split back, before their layouts are chosen; as upstream,
        # integer inputs kept row-major as far as their readers take them so, first
        split = (TTNNRowMajorLayoutPropagationPass(), TTNNSplitRuntimeWeightConcatPass()) if optimizer else ()
        return (*split, TTNNGreedyMemoryLayoutPropagationPass(max_legal_layouts=self.max_legal_layouts if memory_layout else 0,
                                                      override_output_layout=self.override_output_layout,
                                                      override_conv2d_config=self.override_conv2d_config,
                                                      override_conv3d_config=self.override_conv3d_config, **trace),
                TTNNGreedyL1SpillManagementPass(**trace), *validation)

@dataclass(frozen=True)
class ValueSemanticsCSEPass(ModulePass):
    """CSE of the functions whose tensors are values: one that writes a tensor in place (a KV cache update)
    makes two reads of it differ, which CSE (of pure ops) cannot see."""

    name: ClassVar[str] = "cse"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        from xdsl.dialects.func import FuncOp
        from xdsl.transforms.common_subexpression_elimination import cse
        from ttmlir.ir.op_table import IN_PLACE_OPERAND

        for func in module.walk():
            if isinstance(func, FuncOp) and not any(
                    getattr(getattr(op, "ROW", None), "family", None) in IN_PLACE_OPERAND for op in func.walk()):
                cse(func)


@dataclass(frozen=True)
class TTNNCommonToRuntimePipeline(ModulePass):
    """The common pipeline's output made ready for `--ttnn-to-flatbuffer`.

    It checks that its input is the common pipeline's output, drops devices nothing uses and, as upstream, lowers
    the CPU module to the LLVM dialect (`ttmlir.conversion.linalg_to_llvm.cpu_module`)."""

    name: ClassVar[str] = "ttnn-common-to-runtime-pipeline"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        from ttmlir.conversion.linalg_to_llvm.cpu_module import lower_cpu_module

        require_common_output(module, self.name)
        _drop_unused_devices(module)
        lower_cpu_module(ctx, module)


def _drop_unused_devices(module: ModuleOp) -> None:
    """A `ttnn.get_device` made for a layout move that canonicalization then folded away reads nothing: upstream's
    runtime IR has the device only where ops take it (generated code keeps its own device handle)."""
    from ttmlir.dialects.ttnn import TTNNOp

    for op in list(module.walk()):
        if isinstance(op, TTNNOp) and op.ROW.name == "get_device" and not op.results[0].uses:
            op.detach()
            op.erase()


def require_common_output(module: ModuleOp, pipeline: str) -> None:
    from ttmlir.dialects import ttcore
    from ttmlir.transforms.ttcore.register_device import device_module_of

    device = device_module_of(module)
    if not any(isinstance(op, ttcore.DeviceOp) for op in device.ops):
        raise PassFailure(module, f"'{pipeline}' lowers the output of --ttir-to-ttnn-common-pipeline; this module "
                                  "has no ttcore.device (run the common pipeline first)")
    for op in device.walk():
        if op.dialect_name() == "ttir":
            raise PassFailure(op, f"'{pipeline}' expects TTNN ops; '{op.name}' was not lowered "
                                  "(run --ttir-to-ttnn-common-pipeline first)")


@dataclass(frozen=True)
class TTIRToTTNNBackendPipeline(TTIRToTTNNCommonPipeline):
    """The common pipeline, then the runtime one: TTIR to a TTNN module ready for `--ttnn-to-flatbuffer`."""

    name: ClassVar[str] = "ttir-to-ttnn-backend-pipeline"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        with scope(TTIRToTTNNCommonPipeline.name):
            super().apply(ctx, module)
        run_pass(TTNNCommonToRuntimePipeline(), ctx, module)


@dataclass(frozen=True)
class TTIRToTTNNRuntimePipeline(TTIRToTTNNBackendPipeline):
    """Upstream's current name of the backend pipeline (the backend one stays as its deprecated alias)."""

    name: ClassVar[str] = "ttir-to-ttnn-runtime-pipeline"


def _refuse(module: ModuleOp, unsupported: list[tuple[str, bool, str]]) -> None:
    for option, asked, why in unsupported:
        if asked:
            raise PassFailure(module, f"'{option}' is not supported by this build: {why}")


@dataclass(frozen=True)
class _TTNNCommonToCode(ModulePass):
    """What the EmitC and EmitPy pipelines share: their options of upstream's, and the steps before tuplifying."""

    tuplify_input_if_empty: bool = False
    load_input_tensors_from_disk: bool = False
    tensor_load_directory: str = ""
    tensor_load_file_prefix: str = "arg"
    try_recover_structure: bool = False

    def prepare(self, ctx: Context, module: ModuleOp) -> None:
        """Refuse what generated code cannot do, check the input is the common pipeline's, unwrap the device module
        and place the deallocations."""
        from ttmlir.transforms.ttcore.register_device import UnwrapDeviceModulePass
        from ttmlir.transforms.ttnn.ttnn_adjust_deallocs import TTNNAdjustDeallocsPass

        _refuse(module, [("try-recover-structure", self.try_recover_structure, "structure recovery of XLA/torch graphs")])
        require_common_output(module, self.name)
        run_pass(UnwrapDeviceModulePass(), ctx, module)
        run_pass(TTNNAdjustDeallocsPass(), ctx, module)

    def input_functions(self) -> ModulePass:
        """What makes the forward functions' inputs for `main`: tensors read from disk, or ones."""
        if self.load_input_tensors_from_disk:
            from ttmlir.transforms.ttnn.ttnn_load_input_tensors import TTNNLoadInputTensorsPass
            return TTNNLoadInputTensorsPass(self.tensor_load_directory, self.tensor_load_file_prefix)
        from ttmlir.transforms.ttnn.ttnn_create_input_gens import TTNNCreateInputGeneratorsPass
        return TTNNCreateInputGeneratorsPass()


@dataclass(frozen=True)
class TTNNCommonToEmitCPipeline(_TTNNCommonToCode):
    """The common pipeline's output as C++ against the TTNN API: unwrap the device module, tuplify the forward
    functions, add input generators and `main` (unless `target-dylib`), convert to EmitC."""

    name: ClassVar[str] = "ttnn-common-to-emitc-pipeline"
    target_dylib: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        from ttmlir.conversion.ttnn_to_emitc.convert_ttnn_to_emitc import ConvertTTNNToEmitCPass
        from ttmlir.transforms.ttnn.ttnn_tuplify_tensors import TTNNTuplifyTensorsPass

        self.prepare(ctx, module)
        run_pass(TTNNTuplifyTensorsPass(tuplify_input_if_empty=self.tuplify_input_if_empty or self.target_dylib), ctx, module)
        if not self.target_dylib:
            run_pass(self.input_functions(), ctx, module)
        run_pass(ConvertTTNNToEmitCPass(), ctx, module)


@dataclass(frozen=True)
class TTIRToEmitCPipeline(TTIRToTTNNCommonPipeline, TTNNCommonToEmitCPipeline):
    """The common pipeline, then the EmitC one: TTIR to C++ against the TTNN API."""

    name: ClassVar[str] = "ttir-to-emitc-pipeline"
    enable_cpu_hoisted_const_eval: bool = False  # as upstream: the C++ has no host functions

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.enable_trace:
            raise PassFailure(module, "'enable-trace' is not supported by the EmitC pipeline: traces have no C++ "
                                      "lowering")
        _refuse(module, [("enable-cpu-hoisted-const-eval", self.enable_cpu_hoisted_const_eval,
                          "CPU-hoisted functions have no C++ lowering (const-eval runs on the device)")])
        with scope(TTIRToTTNNCommonPipeline.name):
            TTIRToTTNNCommonPipeline.apply(self, ctx, module)
        with scope(TTNNCommonToEmitCPipeline.name):
            TTNNCommonToEmitCPipeline.apply(self, ctx, module)


@dataclass(frozen=True)
class TTNNCommonToEmitPyPipeline(_TTNNCommonToCode):
    """The common pipeline's output as a Python script over the `ttnn` API: tuplify the forward functions, add
    input generators and `main`, convert to EmitPy; with `split-files`, the code goes into `emitpy.file "main"`."""

    name: ClassVar[str] = "ttnn-common-to-emitpy-pipeline"
    target_module: bool = False
    split_files: bool = True

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        from ttmlir.conversion.ttnn_to_emitpy.convert_ttnn_to_emitpy import ConvertTTNNToEmitPyPass
        from ttmlir.transforms.ttnn.ttnn_prepare_const_eval_caching import TTNNPrepareConstEvalCachingPass
        from ttmlir.transforms.ttnn.ttnn_tuplify_tensors import TTNNTuplifyTensorsPass

        _refuse(module, [("load-input-tensors-from-disk", self.load_input_tensors_from_disk,
                          "the simulated ttnn module has no load_tensor for generated Python to call")])
        self.prepare(ctx, module)
        if self.target_module:  # an importable module: `forward(input, device)`, no inputs or main of its own
            from ttmlir.transforms.ttnn.ttnn_prepare_module_for_export import TTNNPrepareModuleForExportPass
            run_pass(TTNNTuplifyTensorsPass(tuplify_input_if_empty=True), ctx, module)
            run_pass(TTNNPrepareModuleForExportPass(), ctx, module)
        else:
            run_pass(TTNNTuplifyTensorsPass(tuplify_input_if_empty=self.tuplify_input_if_empty), ctx, module)
            run_pass(self.input_functions(), ctx, module)
        run_pass(TTNNPrepareConstEvalCachingPass(), ctx, module)
        run_pass(ConvertTTNNToEmitPyPass(target_module=self.target_module), ctx, module)
        if self.split_files:
            from ttmlir.transforms.ttnn.ttnn_file_split import TTNNFileSplitPass, split_files
            with scope(TTNNFileSplitPass.name):
                split_files(module)


@dataclass(frozen=True)
class TTIRToEmitPyPipeline(TTIRToTTNNCommonPipeline, TTNNCommonToEmitPyPipeline):
    """The common pipeline, then the EmitPy one: TTIR to a Python script over the `ttnn` API."""

    name: ClassVar[str] = "ttir-to-emitpy-pipeline"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.enable_trace:
            raise PassFailure(module, "'enable-trace' is not supported by the EmitPy pipeline in this build")
        with scope(TTIRToTTNNCommonPipeline.name):
            TTIRToTTNNCommonPipeline.apply(self, ctx, module)
        with scope(TTNNCommonToEmitPyPipeline.name):
            TTNNCommonToEmitPyPipeline.apply(self, ctx, module)
