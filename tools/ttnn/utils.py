"""What generated Python imports as `utils`: the device it runs on and list building.

`DeviceGetter.get_device(mesh_shape)` opens one simulated device the first time and returns it after; a runner
(`ttrt emitpy`) hands each run its own device with `DeviceGetter.use(device)`."""

from __future__ import annotations


class DeviceGetter:
    _device = None  # the generated program's device: the one process-wide instance its code asks for

    @classmethod
    def get_device(cls, mesh_shape=(1, 1)):
        from ttnn import open_device

        if cls._device is None or not cls._device.is_open:
            cls._device = open_device(mesh_shape=tuple(mesh_shape))
        if tuple(cls._device.shape) != tuple(mesh_shape):
            raise RuntimeError(f"the program runs on a {'x'.join(map(str, mesh_shape))} mesh; the open device is "
                               f"{'x'.join(map(str, cls._device.shape))}")
        return cls._device

    @classmethod
    def use(cls, device) -> None:
        cls._device = device


def create_list(*values) -> list:
    return list(values)


def execute_cpu_hoisted_function(inputs: list, impl, mesh_shape=(1, 1)):
    """A CPU-hoisted function's body run on its host tensors (over a mesh each op computes chip by chip, as
    `ttrt run` runs the hoisted function); the tensors must be on the mesh the function was compiled for."""
    for tensor in inputs:
        device = getattr(tensor, "_device", None)
        if device is not None and tuple(device.shape) != tuple(mesh_shape):
            raise RuntimeError(f"a CPU-hoisted function compiled for a {'x'.join(map(str, mesh_shape))} mesh got a "
                               f"tensor of a {'x'.join(map(str, device.shape))} mesh")
    return impl(*inputs)
