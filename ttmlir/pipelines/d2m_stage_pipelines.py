"""Upstream's D2M pipeline halves, stage by stage, for IR staged as upstream stages it:

- `--d2m-fe-pipeline`: TTIR to D2M in explicit data-movement form: the device registered, upstream's TTIR frontend
  (as `--ttir-to-ttmetal-pipeline` runs it, with `global-data-format-target`'s conversion before the complex
  permutes), ttir-to-d2m, const-tensor scalarization, grid selection, to_layout lowering, elementwise fusion (with
  `enable-elementwise-fusion`), bufferization, scratch buffers, the matmul interchange, the outer loops, masking,
  synchronized buffers, allocation, multicast loads and the explicit form.
- `--d2m-be-pipeline`: from there to kernel functions of D2M ops: arange decomposition, compute loops tiled to DST,
  linalg to affine, op scheduling, scratch allocation, DST register access, tile matmul blocks, affine lowered,
  accesses through subviews folded and memrefs linearized, CB allocs hoisted, the unified thread split, multicast
  semaphores, DMA scheduled, lowered and optimized (composite views expanded, fully indexed), thread arguments
  normalized and the regions outlined, then the kernels canonicalized, loop invariants hoisted and common
  subexpressions merged.
  `--convert-d2m-to-ttkernel` takes the kernel functions on.

Upstream stages this build has no pass for (or, for topk's d2m-build-topk-chain and d2m-decompose-topk, whose ops
the backend stages do not lower yet: `--ttir-to-ttmetal-pipeline` runs topk) are left out, each only needed by the
ops it names: the multi-device tensor annotation (meshes), d2m-optimize-masks (a mask
optimization), d2m-reblock-generics (operands streamed in blocks; the allocator refuses what does not fit),
d2m-insert-spill-and-scratch and d2m-sfpu-tile-loop-fission (DST spills, loop fission), and MLIR's
SCCP and integer-range optimizations (canonicalization folds the constants here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.loop_invariant_code_motion import LoopInvariantCodeMotionPass

from ttmlir.pipelines.ttmetal import FRONTEND
from ttmlir.timing import run_pass, scope
from ttmlir.transforms.ttcore.register_device import RegisterDevicePass


def _stage(name: str, **options) -> ModulePass:
    from ttmlir.passes import registered_passes  # the registry imports the pipelines
    return registered_passes()[name](**options)


@dataclass(frozen=True)
class D2MFrontendPipeline(RegisterDevicePass):
    """TTIR to D2M explicit data-movement form (see the module doc)."""

    name: ClassVar[str] = "d2m-fe-pipeline"
    default_input_memspace: str = "l1"
    default_output_memspace: str = "l1"
    ttnn_mode: bool = False
    collapse_tensors_2d: bool = True
    global_data_format_target: str = ""
    override_device_shape: tuple[int, ...] = ()
    enable_elementwise_fusion: bool = False
    enable_eltwise_reduction_fusion: bool = False
    max_dst_physical_size_tiles: int = 0  # 0: the chip's dst size (what fusion may keep in DST)
    matmul_interchange: tuple[int, ...] = ()
    num_stream_buffers: int = 2
    available_l1_addr_range: tuple[int, ...] = ()
    test_assume_l1_capacity: int = 0

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        with scope(RegisterDevicePass.name):
            super().apply(ctx, module)
        stages = [_stage("ttir-predicate-type-alignment"), _stage("ttir-element-type-normalization"), *FRONTEND[:-1]]
        if self.global_data_format_target:
            stages.append(_stage("ttir-global-data-format-conversion", target_format=self.global_data_format_target))
        stages += [FRONTEND[-1],
                   _stage("ttir-to-d2m", default_input_memspace=self.default_input_memspace,
                          default_output_memspace=self.default_output_memspace, ttnn_mode=self.ttnn_mode,
                          collapse_tensors_2d=self.collapse_tensors_2d),
                   _stage("d2m-scalarize-const-tensors"), _stage("d2m-materialize-view-returns"),
                   _stage("d2m-grid-selection", override_device_shape=self.override_device_shape,
                          ttnn_mode=self.ttnn_mode),
                   _stage("canonicalize"), _stage("d2m-lower-to-layout"), _stage("d2m-materialize-view-returns")]
        if self.enable_elementwise_fusion or self.enable_eltwise_reduction_fusion:
            stages.append(_stage("d2m-generic-fusion", max_dst_physical_size_tiles=self.max_dst_physical_size_tiles,
                                 enable_eltwise_reduction_fusion=self.enable_eltwise_reduction_fusion))
        stages += [_stage("canonicalize"), _stage("ttir-bufferization-pipeline", ttnn_mode=self.ttnn_mode),
                   _stage("d2m-insert-scratch-buffers"),
                   _stage("d2m-generic-apply-interchange", matmul_interchange=self.matmul_interchange),
                   _stage("d2m-generate-outer-loops"), _stage("d2m-decompose-masking"),
                   _stage("d2m-materialize-view-returns"),
                   _stage("d2m-mark-synchronized-buffers", num_stream_buffers=self.num_stream_buffers),
                   _stage("d2m-allocate", available_l1_addr_range=self.available_l1_addr_range,
                          test_assume_l1_capacity=self.test_assume_l1_capacity),
                   _stage("d2m-lower-multicast-loads"), _stage("d2m-generic-lower-to-explicit-form"),
                   _stage("canonicalize")]
        for stage in stages:
            run_pass(stage, ctx, module)


@dataclass(frozen=True)
class D2MBackendPipeline(ModulePass):
    """D2M explicit form to kernel functions of D2M ops (see the module doc)."""

    name: ClassVar[str] = "d2m-be-pipeline"
    max_dst_physical_size_tiles: int = 0  # 0: the chip's dst size
    disable_l1_acc: bool = False
    use_tile_matmul: bool = False
    use_tensor_accessor_dma: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        dst = {"max_dst_physical_size_tiles": self.max_dst_physical_size_tiles}
        stages = [
            _stage("d2m-decompose-arange"), _stage("d2m-generic-tile-compute-loops", **dst),
            _stage("d2m-linalg-to-affine", mark_root_loops=True), _stage("d2m-op-scheduler", enable_op_scheduler=True),
            _stage("canonicalize"), _stage("d2m-lower-scratch-allocate"), _stage("canonicalize"),
            _stage("d2m-insert-dst-register-access-unscheduled", disable_l1_acc=self.disable_l1_acc, **dst),
            _stage("d2m-insert-dst-register-access-scheduled", disable_l1_acc=self.disable_l1_acc, **dst),
            _stage("d2m-insert-tile-matmul-block", use_tile_matmul=self.use_tile_matmul), _stage("canonicalize"),
            _stage("lower-affine"), _stage("fold-memref-alias-ops"), _stage("lower-affine"),
            _stage("d2m-generic-linearize-memref"), _stage("lower-affine"),
            _stage("d2m-hoist-cb-allocs"), _stage("d2m-split-unified-thread"),
            _stage("d2m-preallocate-mcast-semaphores"), _stage("d2m-schedule-dma"), _stage("canonicalize"),
            _stage("d2m-lower-load-store-ops-to-dma"), _stage("d2m-optimize-dma"),
            _stage("d2m-expand-dma-read-composite-view"),
            _stage("d2m-lower-dma-to-fully-indexed-form", use_tensor_accessor_dma=self.use_tensor_accessor_dma),
            _stage("d2m-normalize-thread-args"), _stage("d2m-generic-regions-to-funcs"), _stage("canonicalize"),
            _stage("lower-affine"), LoopInvariantCodeMotionPass(), _stage("cse"), LoopInvariantCodeMotionPass()]
        for stage in stages:
            run_pass(stage, ctx, module)
