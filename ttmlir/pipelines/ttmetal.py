"""`--ttir-to-ttmetal-pipeline` (and its old name `--ttir-to-ttmetal-backend-pipeline`): TTIR to a TTMetal host
program with its kernels in emitc, ready for `ttmlir-translate --ttmetal-to-flatbuffer`.

Stages, each a pass of its own that runs alone under its flag: ttcore-mark-functions-as-forward,
ttcore-wrap-device-module, ttcore-register-device, then upstream's TTIR frontend in its order
(ttir-predicate-type-alignment; ttir-element-type-normalization: i64/ui64 -> si32/ui32, f64 -> f32, f16/i1 -> bf16,
as the device stores them; ttir-decompose-composites, ttir-to-ttir-decomposition, ttir-explicate-tms,
ttir-erase-inverse-ops, ttir-move-reshape-to-constant, ttir-fold-constant-reshape-broadcast,
ttir-reduction-force-keep-dim, ttir-decompose-complex-reshape, ttir-implicit-broadcast-fold, canonicalize,
ttir-decompose-complex-permute), ttir-to-d2m (each op a D2M program in unified-thread form), d2m-grid-selection (each program on the grid its tiles
allow, each topk's split planned), d2m-build-topk-chain (each topk's chain built as planned), d2m-generic-fusion (with enable-elementwise-fusion), convert-d2m-to-ttkernel (each program's kernels as ttkernel
functions, its generic naming them), convert-d2m-to-ttmetal (placement and the TTMetal host program),
convert-ttkernel-to-emitc. On a mesh (`mesh-shape`, or the module's `ttcore.meshes`) the program runs on every chip,
its `ttir.mesh_shard`s and collectives host commands between the chips' programs (`conversion/d2m_to_ttmetal/ccl.py`).
With `ttnn-mode=true` the programs are ttnn.generic ops in a TTNN graph (for
`--ttnn-to-flatbuffer`).

`--ttnn-through-d2m-pipeline` runs the same D2M stages in TTNN mode on the functions of `ttnn.d2m_subgraph` ops."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from xdsl.passes import ModulePass

from ttmlir.errors import PassFailure
from ttmlir.conversion.ttnn_to_ttir.convert_ttnn_to_ttir import ConvertTTNNToTTIRPass
from ttmlir.conversion.d2m_to_ttkernel.convert_d2m_to_ttkernel import ConvertD2MToTTKernelPass
from ttmlir.conversion.d2m_to_ttmetal.convert_d2m_to_ttmetal import FIDELITIES, ConvertD2MToTTMetalPass
from ttmlir.conversion.ttir_to_d2m.ttir_to_d2m import TTIRToD2MPass
from ttmlir.conversion.ttkernel_to_emitc.convert_ttkernel_to_emitc import ConvertTTKernelToEmitCPass
from ttmlir.transforms.d2m.d2m_generic_fusion import D2MGenericFusionPass
from ttmlir.transforms.d2m.d2m_grid_selection import D2MGridSelectionPass
from ttmlir.transforms.d2m.d2m_build_topk_chain import D2MBuildTopKChainPass
from ttmlir.transforms.ttcore.register_device import RegisterDevicePass, WrapDeviceModulePass
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import TTCoreMarkFunctionsAsForwardPass
from ttmlir.transforms.ttir.ttir_element_type_normalization import ElementTypeNormalizationPass
from ttmlir.timing import run_pass, scope
from ttmlir.dialects.canonicalize import CanonicalizePass
from ttmlir.transforms.ttir.ttir_predicate_type_alignment import TTIRPredicateTypeAlignmentPass
from ttmlir.transforms.ttir.ttir_decompose_composites import TTIRDecomposeCompositesPass
from ttmlir.transforms.ttir.ttir_to_ttir_decomposition import TTIRToTTIRDecompositionPass
from ttmlir.transforms.ttir.ttir_explicate_tms import TTIRExplicateTMsPass
from ttmlir.transforms.ttir.ttir_erase_inverse_ops import TTIREraseInverseOpsPass
from ttmlir.transforms.ttir.ttir_move_reshape_to_constant import TTIRMoveReshapeToConstantPass
from ttmlir.transforms.ttir.ttir_fold_constant_reshape_broadcast import TTIRFoldConstantReshapeBroadcastPass
from ttmlir.transforms.ttir.ttir_reduction_force_keep_dim import TTIRReductionForceKeepDimPass
from ttmlir.transforms.ttir.ttir_decompose_complex_reshape import TTIRDecomposeComplexReshapePass
from ttmlir.transforms.ttir.ttir_implicit_broadcast_fold import TTIRImplicitBroadcastFoldPass
from ttmlir.transforms.ttir.ttir_decompose_complex_permute import TTIRDecomposeComplexPermutePass

# upstream's D2M frontend after element-type normalization, in its order: composites and other ops the D2M path has
# no lowering for written out in ones it has (softmax always with its max subtracted: exp overflows past ~88),
# data movement made explicit and simplified (the decomposition for this backend: D2M lowers some ops TTNN lacks,
# e.g. right_shift, and lacks conv1d, which TTNN has)
FRONTEND = (TTIRDecomposeCompositesPass(stable_softmax=True), TTIRToTTIRDecompositionPass(config="ttmetal"),
            TTIRExplicateTMsPass(),
            TTIREraseInverseOpsPass(), TTIRMoveReshapeToConstantPass(), TTIRFoldConstantReshapeBroadcastPass(),
            TTIRReductionForceKeepDimPass(), TTIRDecomposeComplexReshapePass(), TTIRImplicitBroadcastFoldPass(),
            CanonicalizePass(), TTIRDecomposeComplexPermutePass())


@dataclass(frozen=True)
class TTMetalOptions:
    """The pipeline's options, each passed on to the stages it sets."""

    override_device_shape: tuple[int, ...] = ()
    default_input_memspace: str = "l1"
    default_output_memspace: str = "l1"
    use_tile_matmul: bool = False
    enable_elementwise_fusion: bool = False
    enable_eltwise_reduction_fusion: bool = False  # an elementwise program into the reduction after it too
    use_tensor_accessor_dma: bool = False
    ttnn_mode: bool = False
    force_compile_time_args: bool = False
    disable_tolayout_folding: bool = False
    collapse_tensors_2d: bool = True
    set_math_fidelity: str = "HiFi4"
    num_stream_buffers: int = 2
    max_dst_physical_size_tiles: int = 0  # 0: the chip's dst size


@dataclass(frozen=True)
class TTIRToTTMetalPipeline(RegisterDevicePass, TTMetalOptions):
    """TTIR → D2M → TTMetal + TTKernel (as emitc): register the device, convert, lower, print kernels as calls."""

    name: ClassVar[str] = "ttir-to-ttmetal-pipeline"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.set_math_fidelity not in FIDELITIES:
            raise PassFailure(module, f"set-math-fidelity is one of {', '.join(FIDELITIES)}, "
                                      f"not '{self.set_math_fidelity}'")
        run_pass(TTCoreMarkFunctionsAsForwardPass(), ctx, module)
        run_pass(WrapDeviceModulePass(), ctx, module)
        with scope(RegisterDevicePass.name):
            super().apply(ctx, module)
        run_pass(TTIRPredicateTypeAlignmentPass(), ctx, module)
        run_pass(ElementTypeNormalizationPass(), ctx, module)
        for stage in FRONTEND:
            run_pass(stage, ctx, module)
        self.run_d2m(ctx, module)

    def run_d2m(self, ctx: Context, module: ModuleOp) -> None:
        """The TTIR ops of a registered module to D2M programs, their kernels and the host side that runs them."""
        run_pass(TTIRToD2MPass(self.default_input_memspace, self.default_output_memspace, self.ttnn_mode,
                               self.collapse_tensors_2d), ctx, module)
        run_pass(D2MGridSelectionPass(self.override_device_shape, self.ttnn_mode), ctx, module)
        run_pass(D2MBuildTopKChainPass(), ctx, module)
        if self.enable_elementwise_fusion or self.enable_eltwise_reduction_fusion:
            run_pass(D2MGenericFusionPass(self.max_dst_physical_size_tiles, self.enable_eltwise_reduction_fusion),
                     ctx, module)
        run_pass(ConvertD2MToTTKernelPass(
            self.ttnn_mode, self.force_compile_time_args, self.use_tile_matmul, self.use_tensor_accessor_dma,
            self.num_stream_buffers, self.max_dst_physical_size_tiles, self.override_device_shape,
            self.disable_tolayout_folding), ctx, module)
        run_pass(ConvertD2MToTTMetalPass(self.set_math_fidelity, self.override_device_shape, self.ttnn_mode), ctx,
                 module)
        run_pass(ConvertTTKernelToEmitCPass(), ctx, module)


@dataclass(frozen=True)
class TTIRToTTMetalBackendPipeline(TTIRToTTMetalPipeline):
    """The same pipeline under its older name."""

    name: ClassVar[str] = "ttir-to-ttmetal-backend-pipeline"


@dataclass(frozen=True)
class TTNNThroughD2MPipeline(ModulePass):
    """The functions `ttnn.d2m_subgraph` ops run, compiled through D2M: their TTNN ops back to TTIR
    (convert-ttnn-to-ttir), then the TTMetal pipeline's D2M stages in TTNN mode, so each function holds
    `ttnn.generic` ops of the compiler's kernels (`--ttnn-collaspe-d2m` then inlines them)."""

    name: ClassVar[str] = "ttnn-through-d2m-pipeline"
    enable_elementwise_fusion: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        run_pass(ConvertTTNNToTTIRPass(), ctx, module)
        TTIRToTTMetalPipeline(ttnn_mode=True, enable_elementwise_fusion=self.enable_elementwise_fusion).run_d2m(
            ctx, module)
