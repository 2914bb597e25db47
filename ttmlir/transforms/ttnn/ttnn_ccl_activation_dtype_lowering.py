"""`--ttnn-ccl-activation-dtype-lowering`: activations cross a collective in bfp_bf8 instead of bf16/f32 (half the
ethernet traffic), where the graph needs no explicit cast for it.

Two chains, modeled on Llama blocks, each from a matmul through single-use views (reshape, slice, to_memory_config)
and collectives (all_gather, reduce_scatter, all_reduce), at least one collective:
- into a residual add whose other operand is a float: the matmul and the chain produce bfp_bf8; the add's result
  keeps its own type, so the block output is back in the residual's;
- (SiLU allowed in the chain) into a multiply feeding a matmul that itself reaches a residual add that way: the
  matmul, the chain and the multiply produce bfp_bf8, and the second matmul reads it.
Any other shape is left alone: the pass under-matches by design.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore, ttnn

VIEWS = frozenset({"ttnn.reshape", "ttnn.slice_static", "ttnn.to_memory_config"})
COLLECTIVES = frozenset({"ttnn.all_gather", "ttnn.reduce_scatter", "ttnn.all_reduce"})
LOWERABLE = frozenset({"bf16", "f32"})
TARGET = "bfp_bf8"


def _dtype(v: SSAValue) -> str | None:
    layout = getattr(v.type, "encoding", None)
    return layout.data_type if isinstance(layout, ttnn.TTNNLayoutAttr) else None


def _only_use(v: SSAValue):
    uses = list(v.uses)
    return uses[0] if len(uses) == 1 else None


def _chain(start: SSAValue, also: frozenset = frozenset()) -> tuple[list[Operation], Operation | None, int] | None:
    """The single-use views and collectives (and `also` ops) after `start`, the op that ends the chain and the
    operand index it reads it at; None without a collective in it."""
    flow, value, collective = [], start, False
    while (use := _only_use(value)) is not None:
        user = use.operation
        if user.name in VIEWS | COLLECTIVES | also:
            if len(user.results) != 1:
                return None
            collective |= user.name in COLLECTIVES
            flow.append(user)
            value = user.results[0]
            continue
        return (flow, user, use.index) if collective else None
    return None


def _to_residual_add(matmul: Operation) -> list[Operation] | None:
    if _dtype(matmul.results[0]) not in LOWERABLE:
        return None
    found = _chain(matmul.results[0])
    if found is None or found[1].name != "ttnn.add":
        return None
    flow, add, index = found
    return flow if _dtype(add.operands[1 - index]) in LOWERABLE else None


def _lower(op: Operation) -> None:
    """The op's one result in bfp_bf8 tiles, its layout otherwise unchanged."""
    result = op.results[0]
    t = result.type
    layout: ttnn.TTNNLayoutAttr = t.encoding
    if len(op.results) != 1 or _dtype(result) not in LOWERABLE or not layout.is_tiled:
        return
    tile = ttcore.TileType((ttnn.TILE, ttnn.TILE), TARGET)
    memref = MemRefType(tile, layout.memref.get_shape(), layout.memref.layout, layout.memref.memory_space)
    encoding = ttnn.TTNNLayoutAttr(layout.linear, layout.grid, memref, layout.memory_layout, layout.extras)
    Rewriter.replace_value_with_new_type(result, TensorType(ttnn.element_type_for(TARGET), t.get_shape(), encoding))


def _mlp_up_gate(matmul: Operation) -> bool:
    if _dtype(matmul.results[0]) not in LOWERABLE:
        return False
    found = _chain(matmul.results[0], frozenset({"ttnn.silu"}))
    if found is None or found[1].name != "ttnn.multiply":
        return False
    flow, gate, _ = found
    use = _only_use(gate.results[0])
    if use is None or use.operation.name != "ttnn.matmul" or _to_residual_add(use.operation) is None:
        return False
    for op in (matmul, *flow, gate):
        _lower(op)
    return True


@dataclass(frozen=True)
class TTNNCCLActivationDtypeLoweringPass(ModulePass):
    """Lower activation precision to bfp_bf8 around CCL ops."""

    name: ClassVar[str] = "ttnn-ccl-activation-dtype-lowering"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for matmul in [op for op in module.walk() if op.name == "ttnn.matmul"]:
            flow = _to_residual_add(matmul)
            if flow is not None:
                for op in (matmul, *flow):
                    _lower(op)
            else:
                _mlp_up_gate(matmul)
