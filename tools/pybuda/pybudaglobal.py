"""PyBuda's process-wide state: the devices in creation order (they form the pipeline), the queues the run API
fills, whether an error stopped it, and the tile size. `pybuda_reset()` forgets all of it and the configuration."""

from __future__ import annotations

import queue

from pybuda.config import reset as _reset_config

TILE_DIM = 32


class _State:
    devices: list = []
    output_queue: queue.Queue | None = None      # inference results (training: the losses as well)
    loss_queue: queue.Queue | None = None
    checkpoint_queue: queue.Queue | None = None
    d2d_fwd_queues: list = []                    # per device boundary: what crossed it forward / backward
    d2d_bwd_queues: list = []
    training: bool | None = None                 # how the pipeline was initialized (None: not yet)
    error: BaseException | None = None
    awaited_inputs: int = 0                      # run_inference(input_count=N) still owes this many results
    on_inputs = None                             # the run API's handler for inputs pushed while results are owed


def register_device(device) -> None:
    _State.devices.append(device)


def get_devices() -> list:
    return list(_State.devices)


def set_device_pipeline(devs) -> None:
    """Reorder the pipeline: `devs` are the registered devices in the order data flows through them."""
    devs = list(devs)
    if sorted(map(id, devs)) != sorted(map(id, _State.devices)):
        raise ValueError("set_device_pipeline takes every created device exactly once")
    _State.devices = devs


def get_tenstorrent_device():
    """The first TT device of the pipeline, or None."""
    return next((d for d in _State.devices if getattr(d, "is_tenstorrent", False)), None)


def is_silicon(devtype) -> bool:
    """Silicon and Golden both run on the simulated chip here; the question is what the user asked for."""
    return getattr(devtype, "name", devtype) == "Silicon"


def inputs_pushed(device) -> None:
    """A device got inputs: if a run is still waiting for some (run_inference with more inputs than were pushed),
    it goes on now."""
    if _State.awaited_inputs and _State.on_inputs is not None and _State.devices and _State.devices[0] is device:
        _State.on_inputs()


def error_raised() -> bool:
    """True once a run failed; `pybuda_reset()` (or `shutdown()`) clears it."""
    return _State.error is not None


def set_error(exc: BaseException) -> None:
    _State.error = exc


def pybuda_reset() -> None:
    """Forget devices, modules, queues, errors and configuration."""
    _State.devices = []
    _State.output_queue = _State.loss_queue = _State.checkpoint_queue = None
    _State.d2d_fwd_queues, _State.d2d_bwd_queues = [], []
    _State.training = None
    _State.error = None
    _State.awaited_inputs = 0
    _reset_config()


def align_up_tile(v: int) -> int:
    return (v + TILE_DIM - 1) // TILE_DIM * TILE_DIM


def round_up_div(n: int, d: int) -> int:
    return (n + d - 1) // d
