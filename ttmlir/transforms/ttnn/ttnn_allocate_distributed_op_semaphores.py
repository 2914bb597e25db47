"""`--ttnn-allocate-distributed-op-semaphores`: a distributed op given no global semaphore gets one, created where
the function gets its device (so a trace never holds the creation), starting at 0.

`ttnn.distributed_rms_norm`'s semaphore lives on the cores of its width-sharded input (their bounding box; the
whole worker grid when its input's cores are not known): its kernel signals there when the gathered statistics
have arrived, and resets it itself between runs. `ttnn.moe_compute`'s combine semaphore is made by
`ttnn.allocate_moe_compute_semaphore`, whose runtime places it on the combine's cores. Ops whose
semaphores the runtime creates itself (the binary has no place for them) are left alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import trace, ttcore, ttnn
from ttmlir.dialects.ttnn import TTNN_OP_CLASSES, TTNNOp
from ttmlir.ir.props import KINDS
from ttmlir.transforms.ttnn.ttnn_utils import bind_operand, device_before


def input_cores(op: TTNNOp) -> ttnn.CoreRangeSetAttr:
    """The bounding box of the cores holding the op's input shards (else of the worker grid)."""
    layout = op.operands[0].type.encoding
    ranges = layout.core_ranges if isinstance(layout, ttnn.TTNNLayoutAttr) else None
    if not ranges or not ranges.data:
        device = ttcore.registered_device(op)
        rows, columns = device.worker_grid.shape if device is not None else (8, 8)
        return ttnn.CoreRangeSetAttr((ttnn.CoreRangeAttr(((0, 0), (columns - 1, rows - 1))),))
    corners = [corner for r in ranges.data for corner in r.data]
    low = (min(x for x, _ in corners), min(y for _, y in corners))
    high = (max(x for x, _ in corners), max(y for _, y in corners))
    return ttnn.CoreRangeSetAttr((ttnn.CoreRangeAttr((low, high)),))


def global_semaphore(op: TTNNOp) -> None:
    if op.operand_groups()["semaphore"]:
        return
    device = device_before(op)
    create = TTNN_OP_CLASSES["create_global_semaphore"].create(
        operands=[device], result_types=[trace.GlobalSemaphoreType()],
        properties={"initial_value": KINDS["ui32"].build(0), "core_range_set": input_cores(op)})
    create.location = op.location
    Rewriter.insert_op(create, InsertPoint.after(device.owner))
    bind_operand(op, "semaphore", create.results[0])


def moe_compute_semaphore(op: TTNNOp) -> None:
    """The combine's semaphore: its cores are placed by the runtime (from the shard height, hidden size and mux
    cores), so `ttnn.allocate_moe_compute_semaphore` carries those and creates it."""
    if op.operand_groups()["cross_device_semaphore"]:
        return
    device = device_before(op)
    hidden = op.operand_groups()["tilize_input_tensor"][0].type.get_shape()[-1]
    create = TTNN_OP_CLASSES["allocate_moe_compute_semaphore"].create(
        operands=[device], result_types=[trace.GlobalSemaphoreType()],
        properties={"output_height_shard_dim": op.prop("output_height_shard_dim"),
                    "hidden_size": KINDS["ui32"].build(hidden), "initial_value": KINDS["ui32"].build(0),
                    "mux_core_range_set": op.prop("mux_core_range_set")})
    create.location = op.location
    Rewriter.insert_op(create, InsertPoint.after(device.owner))
    bind_operand(op, "cross_device_semaphore", create.results[0])


ALLOCATORS = {"distributed_rms_norm": global_semaphore, "moe_compute": moe_compute_semaphore}


@dataclass(frozen=True)
class TTNNAllocateDistributedOpSemaphoresPass(ModulePass):
    """Bind every distributed op's unbound global semaphores to `ttnn.create_global_semaphore` results."""

    name: ClassVar[str] = "ttnn-allocate-distributed-op-semaphores"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in [o for o in module.walk() if isinstance(o, TTNNOp) and o.ROW.name in ALLOCATORS]:
            ALLOCATORS[op.ROW.name](op)
