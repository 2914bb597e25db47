"""`pybuda.backend`: tt-buda's Python side of its backend (`BackendAPI`: netlists compiled by the Buda backend,
queues pushed and popped through its runtime). Here the device program is a `.ttnn` binary run by
`ttmlir.runtime` on the simulated chip, driven through TTDevice and the run API, so the class is refused."""

from __future__ import annotations

from pybuda.config import PyBudaError


class BackendAPI:
    def __init__(self, *args, **kwargs):
        raise PyBudaError("pybuda.backend.BackendAPI is not supported: there are no netlists or backend queues; "
                          "devices run .ttnn binaries through TTDevice and pybuda.run_inference")
