"""What generated Python imports as `ttir_cpu`: the TTIR ops of functions the compiler hoisted to the host
(`cpu_hoisted_*`), each the simulated `ttnn` function of the TTNN op it lowers to, taking the same arguments and run
on host tensors (as `ttrt run` runs a CPU-hoisted program)."""

from __future__ import annotations

import ttnn
from ttmlir.ir.op_table import TTIR_OPS
from ttmlir.conversion import ttnn_api


def _install(namespace: dict) -> None:
    for row in TTIR_OPS:
        if row.ttnn is None or row.name in namespace:
            continue
        fn = ttnn
        for part in ttnn_api.CONSTRUCTORS.get(row.ttnn, ttnn_api.callee_of(row.ttnn)).split("."):
            fn = getattr(fn, part, None)
        if fn is not None:
            namespace[row.name] = fn


_install(globals())
