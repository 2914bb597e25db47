"""One registry of passes and pipelines, shared by `ttmlir-opt`, pipeline strings and Python.

A pass is an xDSL `ModulePass` dataclass; its fields are its options, spelled with dashes on the
command line (`system_desc_path` is `system-desc-path=...`). Every registered name is also a
Python function on a module: `ttmlir.passes.ttir_to_ttnn_backend_pipeline(module, **options)`.
"""

from __future__ import annotations

import dataclasses
import importlib
import shlex
from collections.abc import Mapping
from typing import Any, Callable

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from ttmlir.cli import UserError
from ttmlir.errors import PassFailure, PassWarning  # noqa: F401 - users catch them here


# Every pass by name, as `module:Class`: a pass's module is imported when the pass is first asked for, so a tool
# running the TTNN pipeline does not build the TTMetal path's dialects (hundreds of op classes). The modules live
# where the stack puts them: ttmlir/conversion/<from>_to_<to>, ttmlir/transforms/<dialect>, ttmlir/pipelines.
PASS_CLASSES = {
    "ttcore-register-device": "ttmlir.transforms.ttcore.register_device:RegisterDevicePass",
    "ttcore-wrap-device-module": "ttmlir.transforms.ttcore.register_device:WrapDeviceModulePass",
    "ttcore-unwrap-device-module": "ttmlir.transforms.ttcore.register_device:UnwrapDeviceModulePass",
    "ttir-fusing": "ttmlir.transforms.ttir.ttir_fusing:TTIRFusingPass",
    "ttir-decompose-composites": "ttmlir.transforms.ttir.ttir_decompose_composites:TTIRDecomposeCompositesPass",
    "cpu-hoist-manually-tagged": "ttmlir.transforms.ttir.cpu_hoist_manually_tagged:CPUHoistManuallyTaggedPass",
    "convert-ttir-to-ttnn": "ttmlir.conversion.ttir_to_ttnn.convert_ttir_to_ttnn:ConvertTTIRToTTNNPass",
    "ttnn-layout": "ttmlir.transforms.ttnn.ttnn_layout:TTNNLayoutPass",
    "ttnn-workaround": "ttmlir.transforms.ttnn.ttnn_workaround:TTNNWorkaroundPass",
    "ttnn-row-major-reshapes": "ttmlir.transforms.ttnn.ttnn_row_major_reshapes:TTNNRowMajorReshapesPass",
    "ttnn-decompose-layouts": "ttmlir.transforms.ttnn.ttnn_decompose_layouts:TTNNDecomposeLayoutsPass",
    "ttnn-deallocate": "ttmlir.transforms.ttnn.ttnn_deallocate:TTNNDeallocatePass",
    "ttir-to-ttnn-backend-pipeline": "ttmlir.pipelines.ttnn:TTIRToTTNNBackendPipeline",
    "ttir-to-ttnn-runtime-pipeline": "ttmlir.pipelines.ttnn:TTIRToTTNNRuntimePipeline",
    "ttcore-one-shot-bufferize": "ttmlir.transforms.ttcore.ttcore_one_shot_bufferize:TTCoreOneShotBufferizePass",
    "ttcore-mark-functions-as-forward": "ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward:TTCoreMarkFunctionsAsForwardPass",
    "ttir-element-type-normalization": "ttmlir.transforms.ttir.ttir_element_type_normalization:ElementTypeNormalizationPass",
    "ttir-flatten-sliding-window": "ttmlir.transforms.ttir.ttir_flatten_sliding_window:TTIRFlattenSlidingWindowPass",
    "ttir-to-ttir-decomposition": "ttmlir.transforms.ttir.ttir_to_ttir_decomposition:TTIRToTTIRDecompositionPass",
    "ttir-implicit-broadcast-fold": "ttmlir.transforms.ttir.ttir_implicit_broadcast_fold:TTIRImplicitBroadcastFoldPass",
    "ttir-fold-full-to-scalar": "ttmlir.transforms.ttir.ttir_fold_full_to_scalar:TTIRFoldFullToScalarPass",
    "remove-dead-values": "ttmlir.transforms.remove_dead_values:RemoveDeadValuesPass",
    "ttnn-decomposition": "ttmlir.transforms.ttnn.ttnn_decomposition:TTNNDecompositionPass",
    "ttnn-resolve-composites": "ttmlir.transforms.ttnn.ttnn_resolve_composites:TTNNResolveCompositesPass",
    "canonicalize": "ttmlir.dialects.canonicalize:CanonicalizePass",
    "cse": "xdsl.transforms.common_subexpression_elimination:CommonSubexpressionElimination",
    "ttnn-weight-dtype-conversion": "ttmlir.transforms.ttnn.ttnn_weight_dtype_conversion:TTNNWeightDtypeConversionPass",
    "ttnn-prepare-conv3d-weights": "ttmlir.transforms.ttnn.ttnn_prepare_conv3d_weights:TTNNPrepareConv3dWeightsPass",
    "convert-ttkernel-to-emitc": "ttmlir.conversion.ttkernel_to_emitc.convert_ttkernel_to_emitc:ConvertTTKernelToEmitCPass",
    "form-expressions": "ttmlir.transforms.emitc.form_expressions:FormExpressionsPass",
    "d2m-to-ttkernel-pipeline": "ttmlir.pipelines.d2m_backend_stages:D2MToTTKernelPipeline",
    "d2m-to-ttmetal-pipeline": "ttmlir.pipelines.d2m_backend_stages:D2MToTTMetalPipeline",
    "d2m-emitc-pipeline": "ttmlir.pipelines.d2m_emitc:D2MEmitCPipeline",
    "remove-dead-emitc-expressions":
        "ttmlir.conversion.ttkernel_to_emitc.remove_dead_emitc_expressions:RemoveDeadEmitCExpressionsPass",
    "convert-d2m-to-ttkernel": "ttmlir.conversion.d2m_to_ttkernel.convert_d2m_to_ttkernel:ConvertD2MToTTKernelPass",
    "convert-d2m-to-ttmetal": "ttmlir.conversion.d2m_to_ttmetal.convert_d2m_to_ttmetal:ConvertD2MToTTMetalPass",
    "convert-d2m-to-ttnn": "ttmlir.conversion.d2m_to_ttnn.convert_d2m_to_ttnn:ConvertD2MToTTNNPass",
    "convert-ttnn-to-ttir": "ttmlir.conversion.ttnn_to_ttir.convert_ttnn_to_ttir:ConvertTTNNToTTIRPass",
    "ttir-to-d2m": "ttmlir.conversion.ttir_to_d2m.ttir_to_d2m:TTIRToD2MPass",
    "d2m-grid-selection": "ttmlir.transforms.d2m.d2m_grid_selection:D2MGridSelectionPass",
    "d2m-allocate": "ttmlir.transforms.d2m.d2m_allocate:D2MAllocatePass",
    "ttkernel-dedup-inits": "ttmlir.transforms.ttkernel.ttkernel_dedup_inits:TTKernelDedupInitsPass",
    "ttkernel-control-dst-section":
        "ttmlir.transforms.ttkernel.ttkernel_control_dst_section:TTKernelControlDstSectionPass",
    "d2m-generic-fusion": "ttmlir.transforms.d2m.d2m_generic_fusion:D2MGenericFusionPass",
    "d2m-generic-replace-globals": "ttmlir.transforms.d2m.d2m_generic_replace_globals:D2MGenericReplaceGlobalsPass",
    "d2m-scalarize-const-tensors": "ttmlir.transforms.d2m.d2m_scalarize_const_tensors:D2MScalarizeConstTensorsPass",
    "d2m-lower-to-layout": "ttmlir.transforms.d2m.d2m_lower_to_layout:D2MLowerToLayoutPass",
    "d2m-decompose-arange": "ttmlir.transforms.d2m.d2m_decompose_arange:D2MDecomposeArangePass",
    "d2m-decompose-masking": "ttmlir.transforms.d2m.d2m_decompose_masking:D2MDecomposeMaskingPass",
    "d2m-materialize-view-returns": "ttmlir.transforms.d2m.d2m_materialize_view_returns:D2MMaterializeViewReturnsPass",
    "d2m-generic-apply-interchange": "ttmlir.transforms.d2m.d2m_generic_apply_interchange:D2MGenericApplyInterchangePass",
    "d2m-linalg-to-affine": "ttmlir.transforms.d2m.d2m_linalg_to_affine:D2MLinalgToAffinePass",
    "d2m-insert-dst-register-access-unscheduled":
        "ttmlir.transforms.d2m.d2m_insert_dst_register_access_unscheduled:D2MInsertDstRegisterAccessUnscheduledPass",
    "d2m-insert-dst-register-access-scheduled":
        "ttmlir.transforms.d2m.d2m_insert_dst_register_access_scheduled:D2MInsertDstRegisterAccessScheduledPass",
    "d2m-insert-tile-matmul-block": "ttmlir.transforms.d2m.d2m_insert_tile_matmul_block:D2MInsertTileMatmulBlockPass",
    "d2m-op-scheduler": "ttmlir.transforms.d2m.d2m_op_scheduler:D2MOpSchedulerPass",
    "d2m-insert-scratch-buffers": "ttmlir.transforms.d2m.d2m_insert_scratch_buffers:D2MInsertScratchBuffersPass",
    "d2m-generic-tile-compute-loops":
        "ttmlir.transforms.d2m.d2m_generic_tile_compute_loops:D2MGenericTileComputeLoopsPass",
    "d2m-mark-synchronized-buffers":
        "ttmlir.transforms.d2m.d2m_mark_synchronized_buffers:D2MMarkSynchronizedBuffersPass",
    "d2m-lower-scratch-allocate": "ttmlir.transforms.d2m.d2m_lower_scratch_allocate:D2MLowerScratchAllocatePass",
    "d2m-preallocate-mcast-semaphores":
        "ttmlir.transforms.d2m.d2m_preallocate_mcast_semaphores:D2MPreallocateMcastSemaphoresPass",
    "d2m-schedule-dma": "ttmlir.transforms.d2m.d2m_schedule_dma:D2MScheduleDMAPass",
    "d2m-optimize-dma": "ttmlir.transforms.d2m.d2m_optimize_dma:D2MOptimizeDMAPass",
    "d2m-lower-load-store-ops-to-dma":
        "ttmlir.transforms.d2m.d2m_lower_load_store_ops_to_dma:D2MLowerLoadStoreOpsToDMAPass",
    "d2m-normalize-thread-args": "ttmlir.transforms.d2m.d2m_normalize_thread_args:D2MNormalizeThreadArgsPass",
    "d2m-generic-linearize-memref":
        "ttmlir.transforms.d2m.d2m_generic_linearize_memref:D2MGenericLinearizeMemrefPass",
    "lower-affine": "ttmlir.transforms.lower_affine:LowerAffinePass",
    "d2m-assign-threads": "ttmlir.transforms.d2m.d2m_assign_threads:D2MAssignThreadsPass",
    "d2m-split-threads": "ttmlir.transforms.d2m.d2m_split_threads:D2MSplitThreadsPass",
    "d2m-insert-compute-cb": "ttmlir.transforms.d2m.d2m_insert_compute_cb:D2MInsertComputeCBPass",
    "d2m-split-unified-thread": "ttmlir.transforms.d2m.d2m_split_unified_thread:D2MSplitUnifiedThreadPass",
    "d2m-hoist-cb-allocs": "ttmlir.transforms.d2m.d2m_hoist_cb_allocs:D2MHoistCBAllocsPass",
    "d2m-generate-outer-loops": "ttmlir.transforms.d2m.d2m_generate_outer_loops:D2MGenerateOuterLoopsPass",
    "d2m-generic-lower-to-explicit-form":
        "ttmlir.transforms.d2m.d2m_generic_lower_to_explicit_form:D2MGenericLowerToExplicitFormPass",
    "d2m-generic-regions-to-funcs":
        "ttmlir.transforms.d2m.d2m_generic_regions_to_funcs:D2MGenericRegionsToFuncsPass",
    "ttir-bufferization-pipeline": "ttmlir.pipelines.ttir_bufferization:TTIRBufferizationPipeline",
    "ttir-to-ttmetal-pipeline": "ttmlir.pipelines.ttmetal:TTIRToTTMetalPipeline",
    "ttir-to-ttmetal-backend-pipeline": "ttmlir.pipelines.ttmetal:TTIRToTTMetalBackendPipeline",
    "convert-tosa-to-ttir": "ttmlir.conversion.tosa_to_ttir.convert_tosa_to_ttir:ConvertTosaToTTIRPass",
    "convert-ttir-to-linalg": "ttmlir.conversion.ttir_to_linalg.convert_ttir_to_linalg:ConvertTTIRToLinalgPass",
    "convert-stablehlo-to-ttir": "ttmlir.conversion.stablehlo_to_ttir.convert_stablehlo_to_ttir:ConvertStableHLOToTTIRPass",
    "convert-arith-to-stablehlo": "ttmlir.transforms.stablehlo.stablehlo_pipelines:ConvertArithToStableHLOPass",
    "stablehlo-aggressive-simplification": "ttmlir.transforms.stablehlo.stablehlo_pipelines:StableHLOAggressiveSimplificationPass",
    "legalize-stablehlo-composite-to-ttir": "ttmlir.transforms.stablehlo.stablehlo_pipelines:LegalizeStableHLOCompositeToTTIRPass",
    "stablehlo-legalize-composite-to-call": "ttmlir.transforms.stablehlo.stablehlo_pipelines:StableHLOLegalizeCompositeToCallPass",
    "inline": "ttmlir.transforms.stablehlo.stablehlo_pipelines:InlinerPass",
    "stablehlo-to-ttir-pipeline": "ttmlir.transforms.stablehlo.stablehlo_pipelines:StableHLOToTTIRPipeline",
    "cpu-hoist-non-lowerable-shlo-ops": "ttmlir.transforms.stablehlo.cpu_hoist_non_lowerable_shlo_ops:CPUHoistNonLowerableSHLOOpsPass",
    "update-global-to-local-shapes": "ttmlir.transforms.shardy.update_global_to_local_shapes:UpdateGlobalToLocalShapesPass",
    "analyze-mesh": "ttmlir.transforms.shardy.analyze_mesh:AnalyzeMeshPass",
    "apply-argument-shard-status": "ttmlir.transforms.shardy.apply_argument_shard_status:ApplyArgumentShardStatusPass",
    "sdy-user-priority-propagate": "ttmlir.transforms.shardy.sdy_user_priority_propagate:SdyUserPriorityPropagatePass",
    "sdy-insert-explicit-reshards": "ttmlir.transforms.shardy.sdy_insert_explicit_reshards:InsertExplicitReshardsPass",
    "wrap-under-manual-computation": "ttmlir.transforms.shardy.wrap_under_manual_computation:WrapUnderManualComputationPass",
    "sdy-reshard-to-collectives": "ttmlir.transforms.shardy.sdy_reshard_to_collectives:ReshardToCollectivesPass",
    "sdy-close-shardings": "ttmlir.transforms.shardy.sdy_close_shardings:SdyCloseShardingsPass",
    "annotate-local-shapes": "ttmlir.transforms.shardy.annotate_local_shapes:AnnotateLocalShapesPass",
    "sdy-sharding-constraint-to-reshard": "ttmlir.transforms.shardy.sdy_sharding_constraint_to_reshard:ShardingConstraintToReshardPass",
    "stablehlo-pipeline": "ttmlir.pipelines.stablehlo_pipeline:StableHLOPipeline",
    "replicate-non-splittable-values": "ttmlir.transforms.shardy.replicate_non_splittable_values:ReplicateNonSplittableValuesPass",
    "ttnn-set-compute-kernel-config": "ttmlir.transforms.ttnn.ttnn_set_compute_kernel_config:TTNNSetComputeKernelConfigPass",
    "auto-sharding": "ttmlir.transforms.shardy.auto_sharding:AutoShardingPass",
    "tt-populate-argument-types": "ttmlir.transforms.shardy.tt_populate_argument_types:TTPopulateArgumentTypesPass",
    "convert-xla-sdy-to-sdy": "ttmlir.transforms.shardy.convert_xla_sdy_to_sdy:ConvertXlaSdyToSdyPass",
    "shardy-ccl-canonicalization": "ttmlir.transforms.shardy.shardy_ccl_canonicalization:ShardyCCLCanonicalizationPass",
    "ttnn-greedy-memory-layout-propagation":
        "ttmlir.transforms.ttnn.optimizer.ttnn_greedy_memory_layout_propagation:TTNNGreedyMemoryLayoutPropagationPass",
    "ttnn-split-runtime-weight-concat":
        "ttmlir.transforms.ttnn.optimizer.ttnn_split_runtime_weight_concat:TTNNSplitRuntimeWeightConcatPass",
    "ttnn-greedy-l1-spill-management": "ttmlir.transforms.ttnn.optimizer.ttnn_greedy_l1_spill_management:TTNNGreedyL1SpillManagementPass",
    "ttnn-operation-validation-and-fallback":
        "ttmlir.transforms.ttnn.optimizer.ttnn_operation_validation_and_fallback:TTNNOperationValidationAndFallbackPass",
    "ttnn-rm-layout-propagation": "ttmlir.transforms.ttnn.ttnn_rm_layout_propagation:TTNNRowMajorLayoutPropagationPass",
    "ttir-propagate-weight-dtype": "ttmlir.transforms.ttir.ttir_propagate_weight_dtype:TTIRPropagateWeightDtypePass",
    "ttir-to-ttnn-common-pipeline": "ttmlir.pipelines.ttnn:TTIRToTTNNCommonPipeline",
    "ttnn-common-to-runtime-pipeline": "ttmlir.pipelines.ttnn:TTNNCommonToRuntimePipeline",
    "ttnn-common-to-emitc-pipeline": "ttmlir.pipelines.ttnn:TTNNCommonToEmitCPipeline",
    "ttir-to-emitc-pipeline": "ttmlir.pipelines.ttnn:TTIRToEmitCPipeline",
    "ttnn-tuplify-tensors": "ttmlir.transforms.ttnn.ttnn_tuplify_tensors:TTNNTuplifyTensorsPass",
    "ttnn-prepare-module-for-export": "ttmlir.transforms.ttnn.ttnn_prepare_module_for_export:TTNNPrepareModuleForExportPass",
    "ttnn-create-input-gens": "ttmlir.transforms.ttnn.ttnn_create_input_gens:TTNNCreateInputGeneratorsPass",
    "ttnn-load-input-tensors": "ttmlir.transforms.ttnn.ttnn_load_input_tensors:TTNNLoadInputTensorsPass",
    "ttnn-force-final-deallocs": "ttmlir.transforms.ttnn.ttnn_force_final_deallocs:TTNNForceFinalDeallocsPass",
    "convert-ttnn-to-emitc": "ttmlir.conversion.ttnn_to_emitc.convert_ttnn_to_emitc:ConvertTTNNToEmitCPass",
    "ttnn-common-to-emitpy-pipeline": "ttmlir.pipelines.ttnn:TTNNCommonToEmitPyPipeline",
    "ttir-to-emitpy-pipeline": "ttmlir.pipelines.ttnn:TTIRToEmitPyPipeline",
    "convert-ttnn-to-emitpy": "ttmlir.conversion.ttnn_to_emitpy.convert_ttnn_to_emitpy:ConvertTTNNToEmitPyPass",
    "ttnn-file-split": "ttmlir.transforms.ttnn.ttnn_file_split:TTNNFileSplitPass",
    "const-eval-hoist-transform": "ttmlir.transforms.ttir.const_eval_hoist_transform:ConstEvalHoistTransformPass",
    "ttnn-prepare-const-eval-caching": "ttmlir.transforms.ttnn.ttnn_prepare_const_eval_caching:TTNNPrepareConstEvalCachingPass",
    "ttnn-adjust-deallocs": "ttmlir.transforms.ttnn.ttnn_adjust_deallocs:TTNNAdjustDeallocsPass",
    "cpu-hoist-const-eval": "ttmlir.transforms.ttir.cpu_hoist_const_eval:CPUHoistConstEvalTransformPass",
    "stablehlo-complex-math-expander": "ttmlir.transforms.stablehlo.stablehlo_complex_math_expander:StablehloComplexMathExpanderPass",
    "stablehlo-complex-data-type-conversion":
        "ttmlir.transforms.stablehlo.stablehlo_complex_data_type_conversion:StableHLOComplexDataTypeConversionPass",
    "flatten-or-convert-composites": "ttmlir.transforms.stablehlo.flatten_or_convert_composites:FlattenOrConvertCompositesPass",
    "reoutline-composite": "ttmlir.transforms.stablehlo.reoutline_composite:ReoutlineCompositePass",
    "decompose-custom-call-tuples": "ttmlir.transforms.stablehlo.decompose_custom_call_tuples:DecomposeCustomCallTuplesPass",
    "register-user-sharding-rule": "ttmlir.transforms.shardy.register_user_sharding_rule:RegisterUserShardingRulePass",
    "register-custom-sharding-rule":
        "ttmlir.transforms.shardy.register_custom_sharding_rule:RegisterCustomShardingRulePass",
    "insert-explicit-reshards": "ttmlir.transforms.shardy.insert_explicit_reshards:InsertExplicitReshardsIfUnsolvedPass",
    "partially-convert-sdy-to-stablehlo":
        "ttmlir.transforms.shardy.partially_convert_sdy_to_stablehlo:PartiallyConvertSdyToStableHLOPass",
    "stablehlo-fusing": "ttmlir.transforms.stablehlo.stablehlo_fusing:StableHLOFusingPass",
    "decouple-const-fanout": "ttmlir.transforms.stablehlo.decouple_const_fanout:DecoupleConstFanoutPass",
    "ttcore-optimization-barrier-fold": "ttmlir.transforms.ttcore.ttcore_optimization_barrier_fold:TTCoreOptimizationBarrierFoldPass",
    "ttir-erase-inverse-ops": "ttmlir.transforms.ttir.ttir_erase_inverse_ops:TTIREraseInverseOpsPass",
    "ttir-explicate-tms": "ttmlir.transforms.ttir.ttir_explicate_tms:TTIRExplicateTMsPass",
    "ttir-infer-kv-cache-argument-types":
        "ttmlir.transforms.ttir.ttir_infer_kv_cache_argument_types:TTIRInferKVCacheArgumentTypesPass",
    "ttir-reduction-force-keep-dim": "ttmlir.transforms.ttir.ttir_reduction_force_keep_dim:TTIRReductionForceKeepDimPass",
    "ttnn-kv-cache-dtype-conversion": "ttmlir.transforms.ttnn.ttnn_kv_cache_dtype_conversion:TTNNKVCacheDtypeConversionPass",
    "ttnn-trace-hoist-transform": "ttmlir.transforms.ttnn.ttnn_trace_hoist_transform:TTNNTraceHoistTransformPass",
    "ttnn-prepare-conv2d-weights-and-bias":
        "ttmlir.transforms.ttnn.ttnn_prepare_conv2d_weights_and_bias:TTNNPrepareConv2dWeightsAndBiasPass",
    "ttnn-force-const-eval-to-system-memory":
        "ttmlir.transforms.ttnn.ttnn_force_const_eval_to_system_memory:TTNNConstEvalInputsToSystemMemoryPass",
    "ttnn-collect-perf-metrics": "ttmlir.transforms.ttnn.ttnn_collect_perf_metrics:TTNNCollectPerfMetricsPass",
    "ttir-fold-constant-reshape-broadcast":
        "ttmlir.transforms.ttir.ttir_fold_constant_reshape_broadcast:TTIRFoldConstantReshapeBroadcastPass",
    "ttir-move-reshape-to-constant": "ttmlir.transforms.ttir.ttir_move_reshape_to_constant:TTIRMoveReshapeToConstantPass",
    "ttir-quant-data-type-conversion": "ttmlir.transforms.ttir.ttir_quant_data_type_conversion:TTIRQuantDataTypeConversionPass",
    "ttnn-fusing": "ttmlir.transforms.ttnn.ttnn_fusing:TTNNFusingPass",
    "ttnn-resolve-tt-lang-kernels": "ttmlir.transforms.ttnn.ttnn_resolve_tt_lang_kernels:TTNNResolveTTLangKernelsPass",
    "ttnn-lower-tt-lang-to-generic": "ttmlir.transforms.ttnn.ttnn_lower_tt_lang_to_generic:TTNNLowerTTLangToGenericPass",
    "ttnn-create-d2m-subgraphs": "ttmlir.transforms.ttnn.ttnn_create_d2m_subgraphs:TTNNCreateD2MSubgraphsPass",
    "ttnn-collaspe-d2m": "ttmlir.transforms.ttnn.ttnn_collaspe_d2m:TTNNCollaspeD2MPass",
    "ttnn-through-d2m-pipeline": "ttmlir.pipelines.ttmetal:TTNNThroughD2MPipeline",
    "ttnn-configure-ccl-ops": "ttmlir.transforms.ttnn.ttnn_configure_ccl_ops:TTNNConfigureCCLOpsPass",
    "ttnn-allocate-distributed-op-buffers":
        "ttmlir.transforms.ttnn.ttnn_allocate_distributed_op_buffers:TTNNAllocateDistributedOpBuffersPass",
    "ttnn-allocate-distributed-op-semaphores":
        "ttmlir.transforms.ttnn.ttnn_allocate_distributed_op_semaphores:TTNNAllocateDistributedOpSemaphoresPass",
    "ttnn-ccl-activation-dtype-lowering":
        "ttmlir.transforms.ttnn.ttnn_ccl_activation_dtype_lowering:TTNNCCLActivationDtypeLoweringPass",
    "ttir-cpu-boolean-narrowing": "ttmlir.transforms.ttir.ttir_cpu_boolean_narrowing:TTIRCPUBooleanNarrowingPass",
    "ttir-predicate-type-alignment":
        "ttmlir.transforms.ttir.ttir_predicate_type_alignment:TTIRPredicateTypeAlignmentPass",
    "ttir-decompose-complex-permute": "ttmlir.transforms.ttir.ttir_decompose_complex_permute:TTIRDecomposeComplexPermutePass",
    "ttir-decompose-complex-reshape": "ttmlir.transforms.ttir.ttir_decompose_complex_reshape:TTIRDecomposeComplexReshapePass",
    "ttir-global-data-format-conversion":
        "ttmlir.transforms.ttir.ttir_global_data_format_conversion:TTIRGlobalDataFormatConversionPass",
    "ttir-consolidate-static-cache-updates":
        "ttmlir.transforms.ttir.ttir_consolidate_static_cache_updates:TTIRConsolidateStaticCacheUpdatesPass",
    "d2m-reblock-generics": "ttmlir.transforms.d2m.d2m_reblock_generics:D2MReblockGenericsPass",
    "d2m-lower-multicast-loads": "ttmlir.transforms.d2m.d2m_lower_multicast_loads:D2MLowerMulticastLoadsPass",
    "d2m-to-ttnn-pipeline": "ttmlir.pipelines.d2m_backend_stages:D2MToTTNNPipeline",
    "d2m-lower-dma-to-fully-indexed-form":
        "ttmlir.transforms.d2m.d2m_lower_dma_to_fully_indexed_form:D2MLowerDMAToFullyIndexedFormPass",
    "d2m-expand-dma-read-composite-view":
        "ttmlir.transforms.d2m.d2m_expand_dma_read_composite_view:D2MExpandDMAReadCompositeViewPass",
    "d2m-fe-pipeline": "ttmlir.pipelines.d2m_stage_pipelines:D2MFrontendPipeline",
    "d2m-be-pipeline": "ttmlir.pipelines.d2m_stage_pipelines:D2MBackendPipeline",
    "ttir-quant-dequant-conversion":
        "ttmlir.transforms.ttir.ttir_quant_dequant_conversion:TTIRQuantDequantConversionPass",
    "emit-calling-convention-wrappers":
        "ttmlir.transforms.llvm.emit_calling_convention_wrappers:LLVMEmitCallingConventionWrapperFuncsPass",
    "linalg-to-llvm-pipeline": "ttmlir.pipelines.linalg_to_llvm:LinalgToLLVMPipeline",
    "tosa-to-linalg": "ttmlir.conversion.tosa_to_linalg.tosa_to_linalg:TosaToLinalgPass",
    "fold-memref-alias-ops": "ttmlir.transforms.fold_memref_alias_ops:FoldMemRefAliasOpsPass",
    "d2m-decompose-topk": "ttmlir.transforms.d2m.d2m_decompose_topk:D2MDecomposeTopkPass",
    "d2m-build-topk-chain": "ttmlir.transforms.d2m.d2m_build_topk_chain:D2MBuildTopKChainPass",
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
    if isinstance(default, tuple) and field.type == "tuple[str, ...]":
        return tuple(x for x in text.split(",") if x)
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


def run_pass(module: ModuleOp, name: str, option_string: str = "", **options) -> ModuleOp:
    """Run a registered pass or pipeline on `module` in place and return it; options come as an MLIR option
    string (`"mesh-shape=1,2"`, as upstream's Python bindings take them), as keywords, or both."""
    from ttmlir.dialects import make_context

    configured = dataclasses.replace(make_pass(name, option_string), **options)
    configured.apply(make_context(), getattr(module, "module_op", module))  # a builder Module too
    return module


def _api(name: str) -> Callable[..., ModuleOp]:
    return lambda module, option_string="", **options: run_pass(module, name, option_string, **options)


def __getattr__(attr: str):
    """`ttmlir.passes.<pass_name_with_underscores>(module, **options)` for every registered pass."""
    name = attr.replace("_", "-")
    if not attr.startswith("_") and name in registered_passes():
        return _api(name)
    raise AttributeError(f"module 'ttmlir.passes' has no attribute '{attr}'")
