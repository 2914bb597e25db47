"""`_ttmlir_runtime`: the runtime module the builder examples import (`tt_runtime.runtime.open_mesh_device`),
backed by the simulated device of `ttrt.runtime`."""

from ttrt import runtime

__all__ = ["runtime"]
