"""JAX on the simulated device in one call.

    import jax.numpy as jnp
    from ttmlir.frontends import jax as tt_jax

    @tt_jax.jit
    def mlp(x, w, b):
        return jax.nn.relu(x @ w + b)

    y = mlp(x, w, b)          # a numpy array, computed on the simulated Wormhole

JAX lowers the function (`jax.jit(f).lower(*args).as_text()`: StableHLO text), the compiler takes it through
`--stablehlo-to-ttir-pipeline` and `--ttir-to-ttnn-backend-pipeline` to a `.ttnn` binary, and the runtime runs
that on a simulated device. A compiled binary is kept per argument signature (shapes and dtypes).
"""

from __future__ import annotations

import functools
from typing import Any, Callable


def stablehlo_text(fn: Callable, *args) -> str:
    """The StableHLO module JAX makes of `fn` for these arguments."""
    import jax
    return jax.jit(fn).lower(*args).as_text()


def compile_stablehlo(text: str, filename: str = "<jax>", pipeline_options: str = "",
                      stablehlo_options: str = "") -> bytes:
    """A `.ttnn` binary of a StableHLO module's text (the options are the two pipelines'); bad input raises
    `ttmlir.diagnostics.DiagnosticError`.
    The module is parsed once and taken through both pipelines in memory (a model's weights are not printed
    and read back between them)."""
    from ttmlir.asm import print_module
    from ttmlir.diagnostics import Diagnostic, DiagnosticError, load_module, verify_module
    from ttmlir.dialects import make_context
    from ttmlir.passes import PassFailure, make_pass
    from ttmlir.target.ttnn import TranslateError, translate

    module, positions = load_module(make_context(), text, filename)
    for name, options in (("stablehlo-to-ttir-pipeline", stablehlo_options),
                          ("ttir-to-ttnn-backend-pipeline", pipeline_options)):
        try:
            make_pass(name, options).apply(make_context(), module)
        except PassFailure as failure:
            raise DiagnosticError(Diagnostic("error", str(failure), filename, text,
                                             positions.get(failure.op))) from None
    verify_module(module, positions, filename, text)
    try:
        return translate(module)
    except TranslateError as error:
        raise DiagnosticError(Diagnostic("error", str(error), filename, print_module(module), None)) from None


def run_binary(binary: bytes, args, arch: str = "wormhole_b0") -> list:
    """The outputs (numpy arrays) of a `.ttnn` binary's first program run on `args`."""
    import numpy as np
    import torch

    from ttmlir.runtime.device import MeshDevice
    from ttmlir.runtime.executor import Binary, release, run_program

    loaded = Binary(data=binary)
    device = MeshDevice(arch, loaded.mesh_shape())
    inputs = [torch.from_numpy(np.array(_host(a), copy=True)) for a in args]
    try:
        outputs, ctx = run_program(loaded, 0, inputs, device)
        values = [_numpy(t.to_torch()) for t in outputs]
        release(loaded.programs[0], ctx, outputs)
    finally:
        device.is_open = False
    return values


def _host(value: Any):
    import numpy as np
    array = np.asarray(value)
    if array.dtype.name == "bfloat16":  # torch reads no numpy bfloat16: as float32, the device converts
        array = array.astype(np.float32)
    return array


def _as_dtype(value, dtype):
    """A result in the program's own type: booleans from their values, integers from their bit patterns."""
    import numpy as np
    if dtype == np.bool_:
        return value != 0
    if np.issubdtype(dtype, np.integer) and np.issubdtype(value.dtype, np.integer):
        return value.astype(dtype)  # wraps modulo the width: a stored unsigned pattern is read as signed
    return value.astype(dtype)


def _numpy(tensor):
    import torch
    if tensor.dtype == torch.bfloat16:
        tensor = tensor.float()
    return tensor.detach().numpy()


def jit(fn: Callable | None = None, *, arch: str = "wormhole_b0") -> Callable:
    """`fn` compiled for and run on the simulated device: called like `fn`, it returns numpy arrays (one, or a
    tuple as `fn` returns a tuple)."""
    if fn is None:
        return functools.partial(jit, arch=arch)
    binaries: dict[tuple, tuple[bytes, Any]] = {}

    @functools.wraps(fn)
    def run(*args):
        import jax
        import numpy as np
        key = tuple((np.shape(a), str(np.asarray(a).dtype)) for a in args)
        if key not in binaries:
            lowered = jax.jit(fn).lower(*args)
            dtypes = [np.dtype(o.dtype) for o in jax.tree_util.tree_leaves(lowered.out_info)]
            binaries[key] = (compile_stablehlo(lowered.as_text(), f"<jax:{fn.__name__}>"), lowered.out_tree, dtypes)
        binary, tree, dtypes = binaries[key]
        # each result in the type JAX gives it (the device holds booleans as bf16 and 8/16-bit integers unsigned)
        values = [_as_dtype(v, d) for v, d in zip(run_binary(binary, args, arch), dtypes)]
        return jax.tree_util.tree_unflatten(tree, values)

    return run
