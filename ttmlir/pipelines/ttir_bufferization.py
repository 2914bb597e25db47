"""`--ttir-bufferization-pipeline`: tensors to buffers (memrefs) for the D2M path. Device tensors take ttcore's
memref layouts (ttcore-one-shot-bufferize). With `ttnn-mode=true` the functions keep their TTNN tensors (TTNN
allocates them) and ops nothing bufferizes stay on tensors: only what D2M reads and writes becomes buffers, seen
from the TTNN tensors through `ttir.ttnn_metal_layout_cast`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.transforms.ttcore.ttcore_one_shot_bufferize import bufferize


@dataclass(frozen=True)
class TTIRBufferizationPipeline(ModulePass):
    """Tensors to buffers for the D2M path (see the module doc)."""

    name: ClassVar[str] = "ttir-bufferization-pipeline"
    ttnn_mode: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        bufferize(op, function_boundaries=not self.ttnn_mode, allow_unknown_ops=self.ttnn_mode)
