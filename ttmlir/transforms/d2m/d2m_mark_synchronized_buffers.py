"""`--d2m-mark-synchronized-buffers`: after bufferization, every `memref.alloc` a `d2m.generic` region uses as a
circular buffer (a buffer its loads, stores or compute write or read) is marked with the number of buffers its
stream cycles through: `memref.alloc() {d2m.synchronized_buffer = 2 : i32}`. A buffer written by an accumulating
computation (a matmul or a reduction adds into it across blocks) or holding a reduction's scaler is single
(`= 1`); others take `num-stream-buffers`. A buffer one `linalg.generic` writes and one other reads is also marked
`d2m.compute_intermediate` (it never leaves the compute thread)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import linalg
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, UnitAttr, i32
from xdsl.dialects.memref import AllocOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m
from ttmlir.errors import PassFailure
from ttmlir.transforms.d2m.synchronizable import cb_usage

# compute that adds into its output across the blocks of a reduction, so its buffer cannot be double-buffered
ACCUMULATING = frozenset({"d2m.tile_matmul", "d2m.tile_matmul_block", "d2m.tile_reduce_sum", "d2m.tile_reduce_max",
                          "d2m.tile_reduce_mean", "d2m.tile_sfpu_reduce_sum", "d2m.tile_sfpu_reduce_max"})
REDUCTION_SCALER = "d2m.reduction_scaler"


def _accumulates(op: Operation) -> bool:
    return any(o.name in ACCUMULATING for o in op.walk())


@dataclass(frozen=True)
class D2MMarkSynchronizedBuffersPass(ModulePass):
    name: ClassVar[str] = "d2m-mark-synchronized-buffers"
    num_stream_buffers: int = 2

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.num_stream_buffers < 1:
            raise PassFailure(op, "num-stream-buffers must be at least 1")
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp) and o.regions]:
            for buffer, usage in cb_usage(generic.regions[0]).items():
                alloc = buffer.owner
                if not isinstance(alloc, AllocOp):
                    continue
                scaler = REDUCTION_SCALER in alloc.attributes
                single = scaler or any(_accumulates(p) for p in usage.producers)
                alloc.attributes["d2m.synchronized_buffer"] = IntegerAttr(1 if single else self.num_stream_buffers,
                                                                          i32)
                if not scaler and len(usage.producers) == len(usage.consumers) == 1 and \
                        isinstance(usage.producers[0], linalg.GenericOp) and \
                        isinstance(usage.consumers[0], linalg.GenericOp):
                    alloc.attributes["d2m.compute_intermediate"] = UnitAttr()
