"""What a pass reports about the IR it works on: raised by passes, shown by tools as located diagnostics."""

from __future__ import annotations

from xdsl.ir import Operation


class PassFailure(Exception):
    """A pass could not do its job on `op`; reported as a located diagnostic."""

    def __init__(self, op: Operation | None, message: str, *more: str):
        super().__init__(message)
        self.op = op
        self.more = more  # further errors on the same op (a conversion's "failed to legalize operation ...")


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
