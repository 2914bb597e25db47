"""What a pass reports about the IR it works on: raised by passes, shown by tools as located diagnostics."""

from __future__ import annotations

from xdsl.dialects.builtin import NameLoc, UnknownLoc
from xdsl.ir import Operation


class PassFailure(Exception):
    """A pass could not do its job on `op`; reported as a located diagnostic, after the errors `then` follows it
    with (each `(op, message)`, as MLIR reports the errors a failing pass emitted in turn)."""

    def __init__(self, op: Operation | None, message: str, then: tuple = ()):
        super().__init__(message)
        self.op = op
        self.then = then


class PassWarning(UserWarning):
    """Something a pass did that the user should know of, on `op`; raised with `warnings.warn`, so a tool shows it
    as a located warning (`ttmlir-opt` does) and the pass goes on."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op


def derive(ops: list[Operation], source: Operation) -> None:
    """Marks ops a pass made in place of `source` as coming from it, so a diagnostic on one of them is shown where
    `source` was written (each keeps `source`'s location too)."""
    location = getattr(source, "location", None)
    for op in ops:
        if location is not None:
            op.location = location
        op.derived_from = getattr(source, "derived_from", source)


def written_at(op: Operation | None) -> Operation | None:
    """The op of the source text a diagnostic on `op` points at: `op`, or the one it was made from."""
    return getattr(op, "derived_from", op)


def written_position(op: Operation, positions: dict):
    """Where the op a diagnostic is on was written: its own (or the op it was derived from) position, else that of
    the first parsed op at its location (a pass that made it in place of another gave it that op's location,
    perhaps inside a name); for an op a pass made with neither (a copy of a region's op), where the nearest op
    around it was written. None when nothing is known."""
    while op is not None:
        pos = _own_position(op, positions)
        if pos is not None:
            return pos
        op = op.parent_op()
    return None


def _own_position(op: Operation, positions: dict):
    pos = positions.get(op, positions.get(written_at(op)))
    location = getattr(op, "location", None)
    if pos is not None or location is None or isinstance(location, UnknownLoc):
        return pos
    by_location: dict = {}
    for parsed, at in positions.items():
        by_location.setdefault(getattr(parsed, "location", None), at)
    while location not in by_location and isinstance(location, NameLoc):
        location = location.location
    return None if isinstance(location, UnknownLoc) else by_location.get(location)
