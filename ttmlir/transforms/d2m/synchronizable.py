"""Which buffers the ops of a `d2m.generic` region write and read, as upstream's SynchronizableOpInterface says: a
buffer one op writes (its producer) and another reads (its consumer) is a circular buffer the region's threads
must synchronize on once they are split."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import linalg
from xdsl.ir import Operation, Region, SSAValue

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_mask_tiles import WriteMaskTileOp
from ttmlir.dialects.d2m_tilize import TileTilizeBlockOp, TileUntilizeBlockOp

# op class (or a subclass: this build's linalg.generic is xDSL's, re-parsed) -> (the operands it writes, those it
# reads)
Operands = Callable[[Operation], list[SSAValue]]
_LOCAL: Operands = lambda op: [op.local] if op.local is not None else []  # noqa: E731
SYNCHRONIZABLE: dict[type[Operation], tuple[Operands, Operands]] = {
    d2m.RemoteLoadOp: (_LOCAL, lambda op: []),
    d2m.RemoteStoreOp: (lambda op: [], _LOCAL),
    linalg.GenericOp: (lambda op: list(op.outputs), lambda op: list(op.inputs)),
    TileTilizeBlockOp: (lambda op: [op.output], lambda op: [op.input]),
    TileUntilizeBlockOp: (lambda op: [op.output], lambda op: [op.input]),
    WriteMaskTileOp: (lambda op: [op.output], lambda op: []),  # a row or column mask written into its tile
}


@dataclass
class CBUsage:
    producers: list[Operation] = field(default_factory=list)
    consumers: list[Operation] = field(default_factory=list)


def cb_usage(region: Region) -> dict[SSAValue, CBUsage]:
    """Every buffer the region's synchronizable ops write or read, with those ops in program order."""
    usage: dict[SSAValue, CBUsage] = {}
    for op in region.walk():
        if not is_synchronizable(op):
            continue
        for value in produced(op):
            usage.setdefault(value, CBUsage()).producers.append(op)
        for value in consumed(op):
            usage.setdefault(value, CBUsage()).consumers.append(op)
    return usage


def _sides(op: Operation) -> tuple[Operands, Operands] | None:
    return next((sides for kind, sides in SYNCHRONIZABLE.items() if isinstance(op, kind)), None)


def is_synchronizable(op: Operation) -> bool:
    return _sides(op) is not None


def produced(op: Operation) -> list[SSAValue]:
    """The buffers a synchronizable op writes."""
    return _sides(op)[0](op)


def consumed(op: Operation) -> list[SSAValue]:
    """The buffers a synchronizable op reads."""
    return _sides(op)[1](op)
