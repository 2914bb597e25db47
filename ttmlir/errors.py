"""What a pass reports about the IR it works on: raised by passes, shown by tools as located diagnostics."""

from __future__ import annotations

from xdsl.ir import Operation


class PassFailure(Exception):
    """A pass could not do its job on `op`; reported as a located diagnostic."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op


class PassWarning(UserWarning):
    """Something a pass did that the user should know of, on `op`; raised with `warnings.warn`, so a tool shows it
    as a located warning (`ttmlir-opt` does) and the pass goes on."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op
