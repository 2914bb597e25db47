"""One registry of passes and pipelines, shared by `ttmlir-opt`, pipeline strings and Python.

A pass is an xDSL `ModulePass` dataclass; its fields are its options, spelled with dashes on the
command line (`system_desc_path` is `system-desc-path=...`). Every registered name is also a
Python function on a module: `ttmlir.passes.ttir_to_ttnn_backend_pipeline(module, **options)`.
"""

from __future__ import annotations

import dataclasses
import importlib
import shlex
import types
from collections.abc import Mapping
from typing import Any, Callable

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from ttmlir.cli import UserError


class PassFailure(Exception):
    """A pass could not do its job on `op`; reported as a located diagnostic."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op


class PassWarning(UserWarning):
    """Something a pass did that the user should know of, on `op`; raised with `warnings.warn`, so a tool shows it
    as a located warning (`ttmlir-opt` does) and the pass goes on."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op


# Every pass by name, as `module:Class`: a pass's module is imported when the pass is first asked for, so a tool
# running the TTNN pipeline does not build the TTMetal path's dialects (hundreds of op classes).
PASS_CLASSES = {
    "ttcore-register-device": "ttmlir.passes.register_device:RegisterDevicePass",
    "ttcore-wrap-device-module": "ttmlir.passes.register_device:WrapDeviceModulePass",
    "ttcore-unwrap-device-module": "ttmlir.passes.register_device:UnwrapDeviceModulePass",
    "ttir-fusing": "ttmlir.passes.ttir_fusing:TTIRFusingPass",
    "cpu-hoist-manually-tagged": "ttmlir.passes.cpu_hoist:CPUHoistManuallyTaggedPass",
    "convert-ttir-to-ttnn": "ttmlir.passes.convert_ttir_to_ttnn:ConvertTTIRToTTNNPass",
    "ttnn-layout": "ttmlir.passes.ttnn_layout:TTNNLayoutPass",
    "ttnn-workaround": "ttmlir.passes.ttnn_workarounds:TTNNWorkaroundPass",
    "ttnn-row-major-reshapes": "ttmlir.passes.ttnn_row_major_reshapes:TTNNRowMajorReshapesPass",
    "ttnn-decompose-layouts": "ttmlir.passes.ttnn_decompose_layouts:TTNNDecomposeLayoutsPass",
    "ttnn-deallocate": "ttmlir.passes.ttnn_deallocate:TTNNDeallocatePass",
    "ttir-to-ttnn-backend-pipeline": "ttmlir.passes.ttnn_pipelines:TTIRToTTNNBackendPipeline",
    "ttir-to-ttnn-runtime-pipeline": "ttmlir.passes.ttnn_pipelines:TTIRToTTNNRuntimePipeline",
    "ttcore-mark-functions-as-forward": "ttmlir.passes.mark_functions_as_forward:TTCoreMarkFunctionsAsForwardPass",
    "ttir-element-type-normalization": "ttmlir.passes.element_type_normalization:ElementTypeNormalizationPass",
    "ttir-flatten-sliding-window": "ttmlir.passes.flatten_sliding_window:TTIRFlattenSlidingWindowPass",
    "ttir-to-ttir-decomposition": "ttmlir.passes.ttir_to_ttir_decomposition:TTIRToTTIRDecompositionPass",
    "ttir-implicit-broadcast-fold": "ttmlir.passes.implicit_broadcast_fold:TTIRImplicitBroadcastFoldPass",
    "ttir-fold-full-to-scalar": "ttmlir.passes.ttir_fold_full_to_scalar:TTIRFoldFullToScalarPass",
    "remove-dead-values": "ttmlir.passes.remove_dead_values:RemoveDeadValuesPass",
    "ttnn-decomposition": "ttmlir.passes.ttnn_decomposition:TTNNDecompositionPass",
    "ttnn-resolve-composites": "ttmlir.passes.resolve_composites:TTNNResolveCompositesPass",
    "canonicalize": "ttmlir.dialects.canonicalize:CanonicalizePass",
    "cse": "xdsl.transforms.common_subexpression_elimination:CommonSubexpressionElimination",
    "ttnn-weight-dtype-conversion": "ttmlir.passes.ttnn_weight_dtype_conversion:TTNNWeightDtypeConversionPass",
    "ttnn-prepare-conv3d-weights": "ttmlir.passes.ttnn_prepare_conv3d_weights:TTNNPrepareConv3dWeightsPass",
    "convert-ttkernel-to-emitc": "ttmlir.passes.convert_ttkernel_to_emitc:ConvertTTKernelToEmitCPass",
    "convert-ttir-to-ttmetal": "ttmlir.passes.convert_ttir_to_ttmetal:ConvertTTIRToTTMetalPass",
    "convert-ttnn-to-ttir": "ttmlir.passes.convert_ttnn_to_ttir:ConvertTTNNToTTIRPass",
    "ttir-to-d2m": "ttmlir.passes.ttir_to_d2m:TTIRToD2MPass",
    "d2m-grid-selection": "ttmlir.passes.d2m_grid_selection:D2MGridSelectionPass",
    "d2m-materialize-view-returns": "ttmlir.passes.d2m_materialize_view_returns:D2MMaterializeViewReturnsPass",
    "ttir-to-ttmetal-pipeline": "ttmlir.passes.ttmetal_pipelines:TTIRToTTMetalPipeline",
    "ttir-to-ttmetal-backend-pipeline": "ttmlir.passes.ttmetal_pipelines:TTIRToTTMetalBackendPipeline",
    "convert-stablehlo-to-ttir": "ttmlir.passes.convert_stablehlo_to_ttir:ConvertStableHLOToTTIRPass",
    "convert-arith-to-stablehlo": "ttmlir.passes.stablehlo_pipelines:ConvertArithToStableHLOPass",
    "stablehlo-aggressive-simplification": "ttmlir.passes.stablehlo_pipelines:StableHLOAggressiveSimplificationPass",
    "legalize-stablehlo-composite-to-ttir": "ttmlir.passes.stablehlo_pipelines:LegalizeStableHLOCompositeToTTIRPass",
    "stablehlo-legalize-composite-to-call": "ttmlir.passes.stablehlo_pipelines:StableHLOLegalizeCompositeToCallPass",
    "inline": "ttmlir.passes.stablehlo_pipelines:InlinerPass",
    "stablehlo-to-ttir-pipeline": "ttmlir.passes.stablehlo_pipelines:StableHLOToTTIRPipeline",
    "cpu-hoist-non-lowerable-shlo-ops": "ttmlir.passes.cpu_hoist_non_lowerable_shlo_ops:CPUHoistNonLowerableSHLOOpsPass",
    "update-global-to-local-shapes": "ttmlir.passes.update_global_to_local_shapes:UpdateGlobalToLocalShapesPass",
    "analyze-mesh": "ttmlir.passes.analyze_mesh:AnalyzeMeshPass",
    "apply-argument-shard-status": "ttmlir.passes.apply_argument_shard_status:ApplyArgumentShardStatusPass",
    "sdy-user-priority-propagate": "ttmlir.passes.sdy_propagation:SdyUserPriorityPropagatePass",
    "sdy-insert-explicit-reshards": "ttmlir.passes.insert_explicit_reshards:InsertExplicitReshardsPass",
    "wrap-under-manual-computation": "ttmlir.passes.wrap_under_manual_computation:WrapUnderManualComputationPass",
    "sdy-reshard-to-collectives": "ttmlir.passes.reshard_to_collectives:ReshardToCollectivesPass",
    "sdy-close-shardings": "ttmlir.passes.sdy_close_shardings:SdyCloseShardingsPass",
    "annotate-local-shapes": "ttmlir.passes.annotate_local_shapes:AnnotateLocalShapesPass",
    "sdy-sharding-constraint-to-reshard": "ttmlir.passes.sharding_constraint_to_reshard:ShardingConstraintToReshardPass",
    "stablehlo-pipeline": "ttmlir.passes.stablehlo_pipeline:StableHLOPipeline",
    "replicate-non-splittable-values": "ttmlir.passes.replicate_non_splittable_values:ReplicateNonSplittableValuesPass",
    "ttnn-set-compute-kernel-config": "ttmlir.passes.ttnn_set_compute_kernel_config:TTNNSetComputeKernelConfigPass",
    "auto-sharding": "ttmlir.passes.auto_sharding:AutoShardingPass",
    "tt-populate-argument-types": "ttmlir.passes.populate_argument_types:TTPopulateArgumentTypesPass",
    "convert-xla-sdy-to-sdy": "ttmlir.passes.convert_xla_sdy_to_sdy:ConvertXlaSdyToSdyPass",
    "shardy-ccl-canonicalization": "ttmlir.passes.shardy_ccl_canonicalization:ShardyCCLCanonicalizationPass",
    "ttnn-greedy-memory-layout-propagation":
        "ttmlir.passes.ttnn_greedy_memory_layout_propagation:TTNNGreedyMemoryLayoutPropagationPass",
    "ttnn-greedy-l1-spill-management": "ttmlir.passes.ttnn_greedy_l1_spill_management:TTNNGreedyL1SpillManagementPass",
    "ttnn-operation-validation-and-fallback":
        "ttmlir.passes.ttnn_operation_validation_and_fallback:TTNNOperationValidationAndFallbackPass",
    "ttnn-rm-layout-propagation": "ttmlir.passes.ttnn_rm_layout_propagation:TTNNRowMajorLayoutPropagationPass",
    "ttir-propagate-weight-dtype": "ttmlir.passes.ttir_propagate_weight_dtype:TTIRPropagateWeightDtypePass",
    "ttir-to-ttnn-common-pipeline": "ttmlir.passes.ttnn_pipelines:TTIRToTTNNCommonPipeline",
    "ttnn-common-to-runtime-pipeline": "ttmlir.passes.ttnn_pipelines:TTNNCommonToRuntimePipeline",
    "ttnn-common-to-emitc-pipeline": "ttmlir.passes.ttnn_pipelines:TTNNCommonToEmitCPipeline",
    "ttir-to-emitc-pipeline": "ttmlir.passes.ttnn_pipelines:TTIRToEmitCPipeline",
    "ttnn-tuplify-tensors": "ttmlir.passes.ttnn_tuplify_tensors:TTNNTuplifyTensorsPass",
    "ttnn-prepare-module-for-export": "ttmlir.passes.ttnn_prepare_module_for_export:TTNNPrepareModuleForExportPass",
    "ttnn-create-input-gens": "ttmlir.passes.ttnn_create_input_generators:TTNNCreateInputGeneratorsPass",
    "ttnn-force-final-deallocs": "ttmlir.passes.ttnn_force_final_deallocs:TTNNForceFinalDeallocsPass",
    "convert-ttnn-to-emitc": "ttmlir.passes.convert_ttnn_to_emitc:ConvertTTNNToEmitCPass",
    "ttnn-common-to-emitpy-pipeline": "ttmlir.passes.ttnn_pipelines:TTNNCommonToEmitPyPipeline",
    "ttir-to-emitpy-pipeline": "ttmlir.passes.ttnn_pipelines:TTIRToEmitPyPipeline",
    "convert-ttnn-to-emitpy": "ttmlir.passes.convert_ttnn_to_emitpy:ConvertTTNNToEmitPyPass",
    "ttnn-file-split": "ttmlir.passes.ttnn_file_split:TTNNFileSplitPass",
    "const-eval-hoist-transform": "ttmlir.passes.const_eval_hoist:ConstEvalHoistTransformPass",
    "ttnn-prepare-const-eval-caching": "ttmlir.passes.ttnn_prepare_const_eval_caching:TTNNPrepareConstEvalCachingPass",
    "ttnn-adjust-deallocs": "ttmlir.passes.ttnn_adjust_deallocs:TTNNAdjustDeallocsPass",
    "cpu-hoist-const-eval": "ttmlir.passes.cpu_hoist_const_eval:CPUHoistConstEvalTransformPass",
    "stablehlo-complex-math-expander": "ttmlir.passes.stablehlo_complex_math_expander:StablehloComplexMathExpanderPass",
    "stablehlo-complex-data-type-conversion":
        "ttmlir.passes.complex_data_type_conversion:StableHLOComplexDataTypeConversionPass",
    "flatten-or-convert-composites": "ttmlir.passes.flatten_or_convert_composites:FlattenOrConvertCompositesPass",
    "reoutline-composite": "ttmlir.passes.reoutline_composite:ReoutlineCompositePass",
    "decompose-custom-call-tuples": "ttmlir.passes.decompose_custom_call_tuples:DecomposeCustomCallTuplesPass",
    "register-user-sharding-rule": "ttmlir.passes.register_user_sharding_rule:RegisterUserShardingRulePass",
    "partially-convert-sdy-to-stablehlo":
        "ttmlir.passes.partially_convert_sdy_to_stablehlo:PartiallyConvertSdyToStableHLOPass",
    "stablehlo-fusing": "ttmlir.passes.stablehlo_fusing:StableHLOFusingPass",
    "decouple-const-fanout": "ttmlir.passes.decouple_const_fanout:DecoupleConstFanoutPass",
    "ttcore-optimization-barrier-fold": "ttmlir.passes.optimization_barrier_fold:TTCoreOptimizationBarrierFoldPass",
    "ttir-erase-inverse-ops": "ttmlir.passes.ttir_erase_inverse_ops:TTIREraseInverseOpsPass",
    "ttir-explicate-tms": "ttmlir.passes.ttir_explicate_tms:TTIRExplicateTMsPass",
    "ttir-infer-kv-cache-argument-types":
        "ttmlir.passes.ttir_infer_kv_cache_argument_types:TTIRInferKVCacheArgumentTypesPass",
    "ttir-reduction-force-keep-dim": "ttmlir.passes.ttir_reduction_force_keep_dim:TTIRReductionForceKeepDimPass",
    "ttnn-kv-cache-dtype-conversion": "ttmlir.passes.ttnn_kv_cache_dtype_conversion:TTNNKVCacheDtypeConversionPass",
    "ttnn-trace-hoist-transform": "ttmlir.passes.ttnn_trace_hoist_transform:TTNNTraceHoistTransformPass",
    "ttnn-prepare-conv2d-weights-and-bias":
        "ttmlir.passes.ttnn_prepare_conv2d_weights_and_bias:TTNNPrepareConv2dWeightsAndBiasPass",
    "ttnn-force-const-eval-to-system-memory":
        "ttmlir.passes.ttnn_const_eval_inputs_to_system_memory:TTNNConstEvalInputsToSystemMemoryPass",
    "ttnn-collect-perf-metrics": "ttmlir.passes.ttnn_collect_perf_metrics:TTNNCollectPerfMetricsPass",
    "ttir-fold-constant-reshape-broadcast":
        "ttmlir.passes.ttir_fold_constant_reshape_broadcast:TTIRFoldConstantReshapeBroadcastPass",
    "ttir-move-reshape-to-constant": "ttmlir.passes.ttir_move_reshape_to_constant:TTIRMoveReshapeToConstantPass",
    "ttir-quant-data-type-conversion": "ttmlir.passes.ttir_quant_data_type_conversion:TTIRQuantDataTypeConversionPass",
    "ttnn-fusing": "ttmlir.passes.ttnn_fusing:TTNNFusingPass",
    "ttnn-ccl-activation-dtype-lowering":
        "ttmlir.passes.ttnn_ccl_activation_dtype_lowering:TTNNCCLActivationDtypeLoweringPass",
    "ttir-cpu-boolean-narrowing": "ttmlir.passes.ttir_cpu_boolean_narrowing:TTIRCPUBooleanNarrowingPass",
    "ttir-decompose-complex-permute": "ttmlir.passes.ttir_decompose_complex_permute:TTIRDecomposeComplexPermutePass",
    "ttir-decompose-complex-reshape": "ttmlir.passes.ttir_decompose_complex_reshape:TTIRDecomposeComplexReshapePass",
    "ttir-global-data-format-conversion":
        "ttmlir.passes.ttir_global_data_format_conversion:TTIRGlobalDataFormatConversionPass",
    "ttir-consolidate-static-cache-updates":
        "ttmlir.passes.ttir_consolidate_static_cache_updates:TTIRConsolidateStaticCacheUpdatesPass",
}


class _Passes(Mapping):
    """The registered passes by name; a class is imported on first access (and checked to carry its name)."""

    def __init__(self):
        self._loaded: dict[str, type[ModulePass]] = {}

    def __getitem__(self, name: str) -> type[ModulePass]:
        if name not in self._loaded:
            module, _, cls_name = PASS_CLASSES[name].partition(":")
            cls = getattr(importlib.import_module(module), cls_name)
            assert cls.name == name, f"{PASS_CLASSES[name]} is named '{cls.name}', registered as '{name}'"
            self._loaded[name] = cls
            # importing a module named like its pass (ttnn_layout.py) binds it on this package; the pass's Python
            # API (`ttmlir.passes.ttnn_layout(module)`) takes the name back (the module stays in sys.modules)
            for registered in PASS_CLASSES:
                if isinstance(globals().get(attr := registered.replace("-", "_")), types.ModuleType):
                    globals()[attr] = _api(registered)
        return self._loaded[name]

    def __iter__(self):
        return iter(PASS_CLASSES)

    def __len__(self) -> int:
        return len(PASS_CLASSES)

    def __contains__(self, name: object) -> bool:
        return name in PASS_CLASSES


_PASSES = _Passes()


def registered_passes() -> Mapping[str, type[ModulePass]]:
    return _PASSES


def options_of(pass_class: type[ModulePass]) -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(pass_class) if not f.name.startswith("_")]


def _convert(field: dataclasses.Field, text: str) -> Any:
    default = field.default if field.default is not dataclasses.MISSING else field.default_factory()
    if isinstance(default, bool):
        if text not in ("true", "false", "1", "0"):
            raise UserError(f"invalid boolean '{text}'")
        return text in ("true", "1")
    if isinstance(default, int):
        return int(text)
    if isinstance(default, tuple):
        return tuple(int(x) for x in text.replace("x", ",").split(",") if x)
    return text


def make_pass(name: str, options: str = "") -> ModulePass:
    """A configured pass from its name and an MLIR option string `opt=val opt2=val`."""
    passes = registered_passes()
    if name not in passes:
        raise UserError(f"'{name}' does not refer to a registered pass or pass pipeline")
    pass_class = passes[name]
    fields = {f.name.replace("_", "-"): f for f in options_of(pass_class)}
    values = {}
    for item in shlex.split(options):
        key, eq, value = item.partition("=")
        if key not in fields:
            raise UserError(f"no such option '{key}' for pass '{name}'")
        if not eq and isinstance(fields[key].default, bool):  # a flag named alone is set, as in MLIR
            value = "true"
        try:
            values[fields[key].name] = _convert(fields[key], value)
        except ValueError as error:
            raise UserError(f"invalid value '{value}' for option '{key}' of pass '{name}': {error}") from None
    return pass_class(**values)


def run_pass(module: ModuleOp, name: str, **options) -> ModuleOp:
    """Run a registered pass or pipeline on `module` in place and return it."""
    from ttmlir.dialects import make_context

    passes = registered_passes()
    if name not in passes:
        raise UserError(f"'{name}' does not refer to a registered pass or pass pipeline")
    passes[name](**options).apply(make_context(), getattr(module, "module_op", module))  # a builder Module too
    return module


def _api(name: str) -> Callable[..., ModuleOp]:
    return lambda module, **options: run_pass(module, name, **options)


def __getattr__(attr: str):
    """`ttmlir.passes.<pass_name_with_underscores>(module, **options)` for every registered pass."""
    name = attr.replace("_", "-")
    if not attr.startswith("_") and name in registered_passes():
        return globals().get(attr) or _api(name)
    raise AttributeError(f"module 'ttmlir.passes' has no attribute '{attr}'")
