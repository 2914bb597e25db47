"""`--ttnn-allocate-distributed-op-buffers`: a distributed op given no scratch buffer gets one, made where the
function gets its device (before any op, so a trace never holds the allocation).

`ttnn.distributed_rms_norm`'s fused kernel exchanges each chip's statistics through `stats`: one tile per chip,
width-sharded in L1 on core (0, 0), in f32 when the op accumulates in f32 (its compute_config's fp32_dest_acc_en,
the default), else bf16. `ttnn.moe_compute`'s combine writes into an output buffer of its result's type. Ops whose buffers the runtime allocates itself (the binary has no place for them) are
left alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import ttnn
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.runtime.op_model import TensorSpec
from ttmlir.transforms.ttnn.optimizer.tensor_specs import layout_of
from ttmlir.transforms.ttnn.ttnn_utils import bind_operand, device_before, ttnn_empty

STATS_SHAPE = (1, 1, ttnn.TILE, ttnn.TILE)


def accumulates_in_f32(op: TTNNOp) -> bool:
    config = op.prop("compute_config")
    return config is None or dict(config.data).get("fp32_dest_acc_en", True) is not False


def stats_buffer(op: TTNNOp) -> None:
    if op.operand_groups()["stats"]:
        return
    dtype = "f32" if accumulates_in_f32(op) else "bf16"
    element = ttnn.DATA_TYPE_TO_MLIR[dtype]
    plain = TensorType(element, STATS_SHAPE)
    t = TensorType(element, STATS_SHAPE, layout_of(plain, TensorSpec(STATS_SHAPE, dtype, "l1", "width_sharded")))
    device = device_before(op)
    empty = ttnn_empty(t, device, op)
    Rewriter.insert_op(empty, InsertPoint.after(device.owner))
    bind_operand(op, "stats", empty.results[0])


def combine_output(op: TTNNOp) -> None:
    """moe_compute's combine writes into a buffer of its result's type (tt-metal deadlocks the exchange without)."""
    if op.operand_groups()["optional_output_tensor"]:
        return
    device = device_before(op)
    empty = ttnn_empty(op.results[0].type, device, op)
    Rewriter.insert_op(empty, InsertPoint.after(device.owner))
    bind_operand(op, "optional_output_tensor", empty.results[0])


ALLOCATORS = {"distributed_rms_norm": stats_buffer, "moe_compute": combine_output}


@dataclass(frozen=True)
class TTNNAllocateDistributedOpBuffersPass(ModulePass):
    """Bind every distributed op's unbound scratch buffers to `ttnn.empty` tensors."""

    name: ClassVar[str] = "ttnn-allocate-distributed-op-buffers"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in [o for o in module.walk() if isinstance(o, TTNNOp) and o.ROW.name in ALLOCATORS]:
            ALLOCATORS[op.ROW.name](op)
