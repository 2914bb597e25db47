"""The ops of the simulated `ttnn`, organised as tt-metal's `ttnn.operations`: each module's functions take
tt-metal's signatures and run the TTNN ops of the compiler's table (`table`), whose own functions (the compiler's
parameters, what generated code calls) stand for every op no module wraps."""

from __future__ import annotations

import functools
import inspect

import ttnn.tensor as _tensor
from ttnn.operations import (conv2d, core, creation, data_movement, eltwise, matmul, normalization, pool, reduction,
                             table)

MODULES = (core, eltwise, reduction, normalization, matmul, data_movement, creation, conv2d, pool)
GOLDEN: dict = {}
for _module in MODULES:
    GOLDEN.update(_module.GOLDEN)


def functions() -> dict:
    """Every op function by its callee (`add`, `transformer.concatenate_heads`): the modules' (tt-metal's
    signatures), else the table's; a call that does not bind to tt-metal's signature but to the op's row (as
    generated code spells it: `ttnn.full(device, shape=..., fill_value=...)`) runs the table's function."""
    found = table.table_functions()
    for module in MODULES:
        for name, function in module.FUNCTIONS.items():
            found[name] = _either(function, found[name]) if name in found else function
    return found


def _either(wrapper, compiled):
    signature = inspect.signature(wrapper)

    def op(*args, **kwargs):
        try:
            signature.bind(*args, **kwargs)
        except TypeError:
            return compiled(*args, **kwargs)
        return wrapper(*args, **kwargs)

    functools.update_wrapper(op, wrapper)
    return op


def get_golden_function(operation):
    """The op's torch golden (its meaning, independent of the simulator's kernels), as tt-metal attaches them."""
    name = getattr(operation, "__name__", operation)
    golden = GOLDEN.get(name)
    if golden is None:
        raise RuntimeError(f"ttnn.{name} has no golden function")

    def run(*args, device=None, **kwargs):  # tt-metal's goldens take the device too
        return golden(*args, **kwargs)

    run.__name__ = f"golden_{name}"
    return run


# the tensor type's methods and operators call these ops
_tensor.OPS.update(functions())
_tensor.OPS["constant"] = core.constant
