"""The TTIR rewrites `--ttir-to-d2m` makes before converting an op, so each op it converts is one program of the
tensor-manipulation path: concats as pads and adds (`concat.py`), broadcasts split and elementwise operands'
implicit broadcasts made explicit (`broadcast.py`), permutes moving the last dim split in two (`permute.py`)."""

from __future__ import annotations

from ttmlir.conversion.ttir_to_d2m.broadcast import decompose_broadcasts
from ttmlir.conversion.ttir_to_d2m.concat import decompose_concat
from ttmlir.conversion.ttir_to_d2m.permute import decompose_permute
from ttmlir.ir.tt_op import TTOp


def decompose_tms(op: TTOp, elementwise: bool) -> list[TTOp]:
    """The ops converting `op`, in order (`op` itself when nothing is rewritten)."""
    if op.name == "ttir.concat" and len(op.operands) > 1:
        return decompose_concat(op)
    if op.name == "ttir.permute":
        return decompose_permute(op)
    return decompose_broadcasts(op, elementwise)
