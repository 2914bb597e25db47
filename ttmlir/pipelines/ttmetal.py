"""`--ttir-to-ttmetal-pipeline` (and its old name `--ttir-to-ttmetal-backend-pipeline`): TTIR to a TTMetal host
program with its kernels in emitc, ready for `ttmlir-translate --ttmetal-to-flatbuffer`.

Runs ttcore-register-device, convert-ttir-to-ttmetal and convert-ttkernel-to-emitc; with `ttnn-mode=true` the
programs are ttnn.generic ops in a TTNN graph (for `--ttnn-to-flatbuffer`). Options this build does not honour yet
are refused when set away from their default, never ignored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from ttmlir.errors import PassFailure
from ttmlir.conversion.ttir_to_ttmetal.convert_ttir_to_ttmetal import ConvertTTIRToTTMetalPass
from ttmlir.conversion.ttkernel_to_emitc.convert_ttkernel_to_emitc import ConvertTTKernelToEmitCPass
from ttmlir.transforms.ttcore.register_device import RegisterDevicePass
from ttmlir.timing import run_pass, scope


@dataclass(frozen=True)
class TTIRToTTMetalPipeline(RegisterDevicePass):
    """TTIR → TTMetal + TTKernel (as emitc): register the device, lower, print kernels as calls."""

    name: ClassVar[str] = "ttir-to-ttmetal-pipeline"
    override_device_shape: tuple[int, ...] = ()
    default_input_memspace: str = "l1"
    default_output_memspace: str = "l1"
    collapse_tensors_2d: bool = True
    enable_elementwise_fusion: bool = False
    ttnn_mode: bool = False
    use_tile_matmul: bool = False
    use_tensor_accessor_dma: bool = False
    force_compile_time_args: bool = False
    disable_tolayout_folding: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if tuple(self.mesh(module)) not in ((1, 1), (1,)):
            raise PassFailure(module, "the TTMetal path runs on one chip in this build (mesh-shape=1,1)")
        with scope(RegisterDevicePass.name):
            super().apply(ctx, module)
        run_pass(ConvertTTIRToTTMetalPass(override_device_shape=self.override_device_shape,
                                 default_input_memspace=self.default_input_memspace,
                                 default_output_memspace=self.default_output_memspace,
                                 use_tile_matmul=self.use_tile_matmul,
                                 enable_elementwise_fusion=self.enable_elementwise_fusion,
                                 use_tensor_accessor_dma=self.use_tensor_accessor_dma,
                                 ttnn_mode=self.ttnn_mode, force_compile_time_args=self.force_compile_time_args,
                                 disable_tolayout_folding=self.disable_tolayout_folding,
                                 collapse_tensors_2d=self.collapse_tensors_2d), ctx, module)
        run_pass(ConvertTTKernelToEmitCPass(), ctx, module)


@dataclass(frozen=True)
class TTIRToTTMetalBackendPipeline(TTIRToTTMetalPipeline):
    """The same pipeline under its older name."""

    name: ClassVar[str] = "ttir-to-ttmetal-backend-pipeline"
