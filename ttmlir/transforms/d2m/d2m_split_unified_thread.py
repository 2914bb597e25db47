"""`--d2m-split-unified-thread`: a `#d2m.thread<unified>` generic becomes a data-movement and a compute region with
the circular-buffer protocol on both sides, by running its three stages in turn: `--d2m-assign-threads`,
`--d2m-split-threads`, `--d2m-insert-compute-cb`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.transforms.d2m.d2m_assign_threads import D2MAssignThreadsPass
from ttmlir.transforms.d2m.d2m_insert_compute_cb import D2MInsertComputeCBPass
from ttmlir.transforms.d2m.d2m_split_threads import D2MSplitThreadsPass


@dataclass(frozen=True)
class D2MSplitUnifiedThreadPass(ModulePass):
    name: ClassVar[str] = "d2m-split-unified-thread"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for stage in (D2MAssignThreadsPass(), D2MSplitThreadsPass(), D2MInsertComputeCBPass()):
            stage.apply(ctx, op)
