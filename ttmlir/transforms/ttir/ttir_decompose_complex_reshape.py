"""`--ttir-decompose-complex-reshape`: a reshape that makes the last dimension 1 or stops it being 1 becomes a
transpose of the last two dimensions plus, where still needed, a reshape that leaves the last dimension alone, when
one of the two dimensions the transpose swaps is 1 (otherwise the transpose would reorder the elements a reshape
keeps in row-major order).

On a tiled device tensor such a reshape moves every element between tiles, while the transpose of a dimension of
one with its neighbour is a cheap tile transpose. The reshape goes first, to the output with its last two
dimensions swapped, unless those are both 1 (then the transpose goes first, of the input's last two).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.transforms.ttir.ttir_flatten_sliding_window import permuted, reshaped


def _swapped(shape: list[int]) -> list[int]:
    return [*shape[:-2], shape[-1], shape[-2]]


def _swap_last_two(value: SSAValue, before: Operation) -> SSAValue:
    rank = value.type.get_num_dims()
    return permuted(value, [*range(rank - 2), rank - 1, rank - 2], before)


def decompose(op: Operation) -> None:
    source = op.operands[0]
    shape, out = list(source.type.get_shape()), list(op.results[0].type.get_shape())
    if len(out) >= 2 and out[-2:] != [1, 1]:
        staged = source if _swapped(out) == shape else reshaped(source, _swapped(out), op)
        value = _swap_last_two(staged, op)
    else:
        value = _swap_last_two(source, op)
        if list(value.type.get_shape()) != out:
            value = reshaped(value, out, op)
    value.owner.location = op.location
    Rewriter.replace_op(op, [], [value])


def _complex(op: Operation) -> bool:
    shape, out = list(op.operands[0].type.get_shape()), list(op.results[0].type.get_shape())
    if not shape or not out or (shape[-1] == 1) == (out[-1] == 1):
        return False
    # the transpose keeps the row-major order only when one of the two dims it swaps is 1
    if len(out) >= 2 and out[-2:] != [1, 1]:
        return 1 in out[-2:]
    return len(shape) >= 2 and shape[-2:] != [1, 1] and 1 in shape[-2:]


@dataclass(frozen=True)
class TTIRDecomposeComplexReshapePass(ModulePass):
    """Turn reshapes that move a dimension of one into or out of the last place into transposes."""

    name: ClassVar[str] = "ttir-decompose-complex-reshape"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in [op for op in module.walk() if op.name == "ttir.reshape"]:
            if isinstance(op.operands[0].type, TensorType) and _complex(op):
                decompose(op)
