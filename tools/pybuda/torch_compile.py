"""`torch.compile(model, backend="tt")` and `pybuda.compile(module, sample_inputs=[...])`: the same importer
and device behind torch's and tt-forge's one-call entry points."""

from __future__ import annotations

import sys

import torch

from pybuda.config import _get_global_compiler_config


def compile(module, sample_inputs, arch: str = "wormhole_b0"):
    """A callable running `module` on the simulated device (compiled for `sample_inputs`' shapes)."""
    from pybuda.compiler import compile_module

    return compile_module(module, tuple(sample_inputs), _get_global_compiler_config(), arch)


def backend(gm: torch.fx.GraphModule, example_inputs):
    """The dynamo backend: each captured graph compiled through torch.export and our importer."""
    from pybuda.compiler import compile_module

    compiled = compile_module(gm, tuple(example_inputs), _get_global_compiler_config(), "wormhole_b0",
                              name="dynamo_graph")

    return compiled


def reset_state() -> None:
    """Forget every graph torch.compile has compiled (dynamo's caches), so the next call recompiles: our backend
    keeps no state of its own beyond what dynamo caches."""
    dynamo = sys.modules.get("torch._dynamo")
    if dynamo is not None:  # not loaded: nothing has been compiled
        dynamo.reset()


compile_torch = backend  # tt-buda's name for it: torch.compile(model, backend=pybuda.compile_torch)


def register() -> None:
    from torch._dynamo.backends.registry import _BACKENDS, register_backend

    if "tt" not in _BACKENDS:
        register_backend(name="tt")(backend)
