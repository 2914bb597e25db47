"""`pybuda.op.eval.buda.splice.Splice`: tt-buda's splice op, which joins and cuts tensors that its t-streaming
split into z blocks of micro-blocks on a core grid. The TTNN backend streams no tensors through z, so there is
nothing here to splice: using it is refused."""

from __future__ import annotations

from pybuda.config import PyBudaError


_WHY = "Splice is not supported: tensors are not t-streamed into micro-block grids here"


class _Refused(type):
    """Every constructor tt-buda's Splice has (create_concatenate, create_select, ...) refuses."""

    def __getattr__(cls, name):
        raise PyBudaError(f"{_WHY} (Splice.{name})")


class Splice(metaclass=_Refused):
    def __init__(self, *args, **kwargs):
        raise PyBudaError(_WHY)
